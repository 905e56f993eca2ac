//! Probes into the Winandy–Leine Sequential Impact Law (`law::sequential`) and the rod
//! collisions of their Sect. 4 (`system::rods`). Every output is computed by law code;
//! none restates a matrix or a value of the paper.

use super::inputs::{err, get, int, r, Inputs};
use crate::arith::Rational;
use crate::lang::Env;
use crate::law::sequential::cycles::{abc_cycle, find_cyclic_violation};
use crate::law::sequential::{construct_law, ConeMap, Cradle, Vec2};

type R = Rational;

/// The masses m1, m2, m3: each `m{i}` if given, else `m`, else 1.
fn masses(inp: &Inputs) -> Result<[R; 3], String> {
    let one = || Ok::<R, String>(int(1));
    let m = |i: usize| -> Result<R, String> {
        let k = format!("m{i}");
        if inp.contains_key(&k) {
            get(inp, &k).map(r)
        } else if inp.contains_key("m") {
            get(inp, "m").map(r)
        } else {
            one()
        }
    };
    Ok([m(1)?, m(2)?, m(3)?])
}

fn flag(b: bool) -> R {
    int(usize::from(b))
}

fn law(inp: &Inputs) -> Result<(ConeMap<R>, Cradle<R>), String> {
    let m = masses(inp)?;
    let map = construct_law(&m).map_err(err)?;
    let cradle = Cradle::new(&m).map_err(err)?;
    Ok((map, cradle))
}

fn put2(out: &mut Env<R>, name: &str, v: &Vec2<R>) {
    for (i, x) in v.iter().enumerate() {
        out.insert(format!("{name}{}", i + 1), x.clone());
    }
}

/// Winandy–Leine Theorem 1 (eq. (37)) on one pair a = (`a1`, `a2`), b = (`b1`, `b2`),
/// through `checks::nonexpansive_pair` (which also checks (39) and the per-piece isometry
/// of the proof): `lhs` = ‖S(a) − S(b)‖², `rhs` = ‖a − b‖² (metric G⁻¹), `split` (1 when
/// the segment crosses a cone boundary).
pub(crate) fn sequential_pair(inp: &Inputs) -> Result<Env<R>, String> {
    let (map, cradle) = law(inp)?;
    let a = [r(get(inp, "a1")?), r(get(inp, "a2")?)];
    let b = [r(get(inp, "b1")?), r(get(inp, "b2")?)];
    let (lhs, rhs, split) =
        crate::law::sequential::checks::nonexpansive_pair(&map, &cradle, &a, &b).map_err(err)?;
    Ok(Env::from([
        ("lhs".into(), lhs),
        ("rhs".into(), rhs),
        ("split".into(), flag(split)),
    ]))
}

/// Winandy–Leine Sect. 5.2: the ABC-cycle (45) with parameter `v` through the law
/// (`cycles::abc_cycle`): `gp{A,B,C}{1,2}` (46), `bar…` (47), `lam…` (48), `lambda_sum`
/// (the left side of (49)), `violates` (1 when −Σ > 0, i.e. (18) fails), and the exact
/// search of `cycles::find_cyclic_violation` on the integer grid [−2, 2]²: `found`,
/// `found_sum` (the largest violating −Σ over 3-cycles).
pub(crate) fn sequential_abc(inp: &Inputs) -> Result<Env<R>, String> {
    let (map, cradle) = law(inp)?;
    let v = r(get(inp, "v")?);
    let c = abc_cycle(&map, &cradle, &v).map_err(err)?;
    let mut out = Env::new();
    for (k, p) in ["A", "B", "C"].iter().enumerate() {
        put2(&mut out, &format!("gm{p}"), &c.gamma_minus[k]);
        put2(&mut out, &format!("gp{p}"), &c.gamma_plus[k]);
        put2(&mut out, &format!("bar{p}"), &c.gamma_bar[k]);
        put2(&mut out, &format!("lam{p}"), &c.lambda[k]);
    }
    out.insert("violates".into(), flag(c.violates().map_err(err)?));
    out.insert("lambda_sum".into(), c.lambda_sum.clone());
    let found = find_cyclic_violation(&map, &cradle, 2, 3).map_err(err)?;
    out.insert("found".into(), flag(found.is_some()));
    if let Some(f) = found {
        out.insert("found_sum".into(), f.sum);
        out.insert("found_len".into(), int(f.gamma_minus.len()));
    }
    Ok(out)
}
