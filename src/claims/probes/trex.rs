//! Probes into the TREX design study (Seghete–Murphey Sect. VII-B, Table I) in the declared
//! model of `docs/trex-model.md` ([`crate::system::trex`]). Every value is computed in MPFR
//! intervals and returned as its two bounds, rounded outward to 10 significant digits
//! (`name_lo`, `name_hi`): relations on them are certified.

use super::inputs::{err, get, int, Inputs};
use crate::arith::{MpInterval, Rational, Scalar};
use crate::lang::Env;
use crate::system::trex::{certify_orthogonal, l_tail, l_tail_homothetic, table_i, TailRule};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};

type R = Rational;

/// The probes of this file.
pub const PROBES: &[(&str, &str)] = &[
    (
        "trex.ltail",
        "r1 r2 [k] -> ltail_lo/hi homothetic c_lo/hi (L r1/r2) scaled_lo/hi (L(k r1, k r2)) ck_lo/hi; SM Sect. VII-B",
    ),
    (
        "trex.row",
        "row (initial|optimized) [tail (printed|homothetic)] -> gap_tail gap_foot gap_left ltail ip cos xi2 m1 m2 (each _lo/_hi); SM Table I, declared model",
    ),
    (
        "trex.table1",
        "-> x_initial x_optimized phase_lo/hi (phiL - phiR, Initial) d_<col> largest_rad largest_rel largest_printed gamma_straight; SM Table I",
    ),
    (
        "trex.certified",
        "[bits] [tail] -> proved width ip gap_tail gap_foot xi2 cos (each _lo/_hi) dz_max xi2_initial_lo newton_steps <z>; SM Sect. VII-B, declared model",
    ),
];

/// Runs a probe of this file; `None` if the name is not one of [`PROBES`].
pub(crate) fn run(name: &str, inp: &Inputs) -> Option<Result<Env<R>, String>> {
    Some(match name {
        "trex.ltail" => ltail(inp),
        "trex.row" => row(inp),
        "trex.table1" => table1(),
        "trex.certified" => certified(inp),
        _ => return None,
    })
}

const BITS: u32 = 128;

/// x rounded down (or up) to `sig` significant decimal digits, exactly.
fn outward(x: &BigRational, up: bool, sig: i32) -> BigRational {
    if x.is_zero() {
        return x.clone();
    }
    let e = x.abs().to_f64().map_or(0, |f| f.log10().floor() as i32);
    let p = sig - 1 - e;
    let ten = BigRational::from_integer(BigInt::from(10));
    let scale = if p >= 0 {
        num_traits::pow(ten, p as usize)
    } else {
        num_traits::pow(ten, (-p) as usize).recip()
    };
    let y = x * &scale;
    let r = if up { y.ceil() } else { y.floor() };
    r / scale
}

fn put(out: &mut Env<R>, name: &str, x: &MpInterval) -> Result<(), String> {
    let (lo, hi) = x
        .rational_bounds()
        .ok_or_else(|| format!("{name}: unbounded enclosure"))?;
    out.insert(format!("{name}_lo"), R::from_big(&outward(&lo, false, 10)));
    out.insert(format!("{name}_hi"), R::from_big(&outward(&hi, true, 10)));
    Ok(())
}

fn tail_rule(inp: &Inputs) -> Result<TailRule, String> {
    match inp.get("tail").map(String::as_str) {
        None | Some("printed") => Ok(TailRule::Printed),
        Some("homothetic") => Ok(TailRule::Homothetic),
        Some(o) => Err(format!("trex: unknown tail rule {o}")),
    }
}

fn iv(q: &BigRational) -> MpInterval {
    MpInterval::from_rational(q, &BITS)
}

/// `trex.ltail`: the printed L_tail at (r1, r2) and at (k r1, k r2) (k = 2 by default),
/// the constant c = L_tail·r1/r2 that "inversely proportional to the ratio" would make
/// depend on r1/r2 only, and the homothetic length (r1 + r2) r2/(r1 − r2) (exact).
fn ltail(inp: &Inputs) -> Result<Env<R>, String> {
    let r1 = get(inp, "r1")?;
    let r2 = get(inp, "r2")?;
    let k = match inp.get("k") {
        Some(_) => get(inp, "k")?,
        None => BigRational::from_integer(2.into()),
    };
    let mut out = Env::new();
    let l = l_tail(&iv(&r1), &iv(&r2)).map_err(err)?;
    let ls = l_tail(&iv(&(&k * &r1)), &iv(&(&k * &r2))).map_err(err)?;
    let ratio = iv(&(&r1 / &r2));
    put(&mut out, "ltail", &l)?;
    put(&mut out, "scaled", &ls)?;
    put(&mut out, "c", &(l.clone() * &ratio))?;
    put(&mut out, "ck", &(ls * &ratio))?;
    let h = l_tail_homothetic(&R::from_big(&r1), &R::from_big(&r2)).map_err(err)?;
    out.insert("homothetic".into(), h);
    out.insert("k".into(), R::from_big(&k));
    Ok(out)
}

/// `trex.row`: the declared model at a Table I row.
fn row(inp: &Inputs) -> Result<Env<R>, String> {
    let which = match inp.get("row").map(String::as_str) {
        Some("initial") => 0,
        Some("optimized") => 1,
        o => {
            return Err(format!(
                "trex.row: row must be initial or optimized, got {o:?}"
            ))
        }
    };
    let p = table_i()[which].point::<MpInterval>(&BITS, tail_rule(inp)?);
    let r = p.report().map_err(err)?;
    let l = p.layout().map_err(err)?;
    let mut out = Env::new();
    put(&mut out, "gap_tail", &r.gap_tail)?;
    put(&mut out, "gap_foot", &r.gap_foot)?;
    put(&mut out, "gap_left", &r.gap_left)?;
    put(&mut out, "ltail", &r.tail_length)?;
    put(&mut out, "ip", &r.inner)?;
    put(&mut out, "cos", &r.cosine)?;
    put(&mut out, "xi2", &r.xi_squared)?;
    put(&mut out, "m1", &l.bodies[0].mass)?;
    put(&mut out, "m2", &l.bodies[1].mass)?;
    put(&mut out, "m_tail", &l.bodies[2].mass)?;
    Ok(out)
}

/// `trex.table1`: checks of Table I that need no model.
fn table1() -> Result<Env<R>, String> {
    let rows = table_i();
    let r = |s: &str| crate::lang::rational(s).map_err(err);
    let cols = |i: usize| -> Result<Vec<BigRational>, String> {
        rows[i]
            .columns
            .iter()
            .chain(rows[i].design.iter())
            .map(|s| r(s))
            .collect()
    };
    let (a, b) = (cols(0)?, cols(1)?);
    // columns: x y θ φL φR γL γR φT r1 r2 lu ll
    let names = [
        "x", "y", "theta", "phi_l", "phi_r", "gamma_l", "gamma_r", "phi_t", "r1", "r2", "lu", "ll",
    ];
    let radians = [2, 3, 4, 5, 6, 7];
    let d: Vec<BigRational> = a.iter().zip(&b).map(|(x, y)| (y - x).abs()).collect();
    let mut out = Env::new();
    for (n, v) in names.iter().zip(&d) {
        out.insert(format!("d_{n}"), R::from_big(v));
    }
    let phi_r = 4;
    let largest =
        |set: &[usize], v: &[BigRational]| set.iter().all(|&i| i == phi_r || v[i] < v[phi_r]);
    let flag = |b: bool| int(usize::from(b));
    out.insert("largest_rad".into(), flag(largest(&radians, &d)));
    let all: Vec<usize> = (0..12).collect();
    out.insert("largest_printed".into(), flag(largest(&all, &d)));
    let nonzero: Vec<usize> = (0..12).filter(|&i| !a[i].is_zero()).collect();
    let rel: Vec<BigRational> = (0..12)
        .map(|i| {
            if a[i].is_zero() {
                a[i].clone()
            } else {
                &d[i] / a[i].abs()
            }
        })
        .collect();
    out.insert("largest_rel".into(), flag(largest(&nonzero, &rel)));
    out.insert("rel_phi_r".into(), R::from_big(&rel[phi_r]));
    out.insert("x_initial".into(), R::from_big(&a[0]));
    out.insert("x_optimized".into(), R::from_big(&b[0]));
    let pi = MpInterval::pi(&BITS).map_err(err)?;
    put(&mut out, "phase", &(iv(&(&a[3] - &a[4])) - &pi))?;
    put(&mut out, "phase_opt", &(iv(&(&b[3] - &b[4])) - &pi))?;
    // knees straight: γ ≡ 0 (mod 2π) within the printed digits
    let two_pi = pi.lift_i64(2) * &pi;
    put(&mut out, "gamma_l_mod", &(iv(&a[5]) - &two_pi))?;
    put(&mut out, "gamma_r_mod", &(iv(&a[6]) - &two_pi))?;
    Ok(out)
}

/// `trex.certified`: the optimisation of Sect. VII-B in the declared model, certified by a
/// Krawczyk step (box radius 10⁻⁴⁰), and ξ² at the Initial row for comparison.
fn certified(inp: &Inputs) -> Result<Env<R>, String> {
    let bits = match inp.get("bits") {
        Some(_) => u32::try_from(get(inp, "bits")?.to_integer()).map_err(err)?,
        None => 256,
    };
    let tail = tail_rule(inp)?;
    let radius = BigRational::new(1.into(), num_traits::pow(BigInt::from(10), 40));
    let c = certify_orthogonal(tail, bits, &radius).map_err(err)?;
    let mut out = Env::new();
    out.insert("proved".into(), int(usize::from(c.proved)));
    let w = c
        .box_
        .iter()
        .map(|b| b.width())
        .max_by(|x, y| x.partial_cmp(y).unwrap_or(std::cmp::Ordering::Equal))
        .and_then(|f| crate::arith::float_to_rat(&f))
        .ok_or("trex.certified: no box")?;
    out.insert("width".into(), R::from_big(&outward(&w, true, 10)));
    put(&mut out, "ip", &c.report.inner)?;
    put(&mut out, "cos", &c.report.cosine)?;
    put(&mut out, "gap_tail", &c.report.gap_tail)?;
    put(&mut out, "gap_foot", &c.report.gap_foot)?;
    put(&mut out, "xi2", &c.report.xi_squared)?;
    let (z0q, z0d) = table_i()[0].exact();
    let z0: Vec<BigRational> = z0q[1..].iter().chain(z0d.iter()).cloned().collect();
    let dz = c
        .fixed
        .iter()
        .zip(&z0)
        .map(|(a, b)| (a - b).abs())
        .fold(BigRational::zero(), |m, x| if x > m { x } else { m });
    out.insert("dz_max".into(), R::from_big(&outward(&dz, true, 10)));
    for (n, v) in crate::system::trex::Z_NAMES.iter().zip(&c.fixed) {
        out.insert((*n).into(), R::from_big(&outward(v, false, 10)));
    }
    out.insert("newton_steps".into(), int(c.newton.iterates.len() - 1));
    let p0 = table_i()[0].point::<MpInterval>(&BITS, tail);
    put(
        &mut out,
        "xi2_initial",
        &p0.report().map_err(err)?.xi_squared,
    )?;
    Ok(out)
}
