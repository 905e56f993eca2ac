//! Probes into the billiard break of Seghete–Murphey Sect. VII-A (`system::billiard`).

use super::inputs::{err, get, r, Inputs};
use crate::arith::{Algebraic, Quadratic, Rational, Scalar};
use crate::lang::Env;
use crate::system::billiard::Break;
use num_rational::BigRational;

type R = Rational;

/// The outputs of one break, in any backend; values that are not rational are left out.
fn outputs<S: Scalar>(
    b: &Break<S>,
    to_q: impl Fn(&S) -> Option<BigRational>,
) -> Result<Env<R>, String> {
    let o = b.outcome(64).map_err(err)?;
    let mut out = Env::new();
    for (name, v) in [
        ("inner", &o.inner_product),
        ("cos_over_mc", &o.cos_theta_over_mc),
        ("middle", &o.printed_31_middle),
        ("xi2", &o.xi_squared),
        ("overlap", &o.overlap_margin),
    ] {
        if let Some(q) = to_q(v) {
            out.insert(name.into(), r(q));
        }
    }
    Ok(out)
}

fn radii_masses<S: Scalar>(
    inp: &Inputs,
    like: &S,
    cos_half: S,
    sin_half: S,
) -> Result<Break<S>, String> {
    let lift = |n: &str, default: &str| -> Result<S, String> {
        if inp.contains_key(n) {
            Ok(like.lift(&get(inp, n)?))
        } else {
            Ok(like.lift(&crate::lang::rational(default).map_err(|e| e.to_string())?))
        }
    };
    let radii = [lift("ra", "1")?, lift("rb", "1")?, lift("rc", "1")?];
    let mut b = Break::with_volume_masses(radii, cos_half, sin_half);
    for (i, n) in ["ma", "mb", "mc"].iter().enumerate() {
        if inp.contains_key(*n) {
            b.masses[i] = like.lift(&get(inp, n)?);
        }
    }
    Ok(b)
}

/// Seghete–Murphey Sect. VII-A, eq. (31) and Fig. 5, with the angle θ given through
/// `half` = θ/2 in the input language (e.g. `pi/4`) or a rational `theta_over_pi` = θ/π,
/// both evaluated in Q(√d) (or, beyond it, in the algebraic backend); radii `ra rb rc` (default 1), masses `ma mb mc` (default r³,
/// equal density). Outputs (law code, `system::billiard`): `inner` = ⟨Dφa, Dφb⟩_g from the
/// normals, `middle` (the middle expression of (31) as printed), `cos_over_mc` = cos θ/m_c,
/// `xi2` = ξ² (Fig. 5), `overlap` (cos θ_min − cos θ) — those that are rational. A
/// rational `t` = tan(θ/4) is the probe of the same name in `probes_generic` (any
/// arithmetic), which runs first.
pub(crate) fn billiard_break(inp: &Inputs) -> Result<Env<R>, String> {
    let half = match inp.get("theta_over_pi") {
        Some(_) => {
            let q = get(inp, "theta_over_pi")? / BigRational::from_integer(2.into());
            format!("({})*pi", crate::lang::show(&q))
        }
        None => inp
            .get("half")
            .cloned()
            .ok_or("billiard.break: give t, half or theta_over_pi")?,
    };
    super::inputs::quadratic_or_algebraic(
        || {
            let b = at_half::<Quadratic>(inp, &half)?;
            outputs(&b, |x: &Quadratic| {
                x.as_rational().map(crate::arith::rug_to_rat)
            })
        },
        || {
            let b = at_half::<Algebraic>(inp, &half)?;
            outputs(&b, |x: &Algebraic| {
                x.as_rational().map(crate::arith::rug_to_rat)
            })
        },
    )
}

/// The break with θ/2 = `half` in the exact backend `S`.
fn at_half<S: Scalar<Ctx = ()>>(inp: &Inputs, half: &str) -> Result<Break<S>, String> {
    let c = crate::lang::eval_str::<S>(&format!("cos({half})"), &()).map_err(err)?;
    let s = crate::lang::eval_str::<S>(&format!("sin({half})"), &()).map_err(err)?;
    let like = c.clone();
    radii_masses(inp, &like, c, s)
}
