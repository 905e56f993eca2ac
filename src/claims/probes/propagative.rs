//! Probes into the Seghete–Murphey propagative model (`law::propagative`).

use super::inputs::{err, get, int, r, Inputs};
use crate::arith::{Rational, Scalar};
use crate::lang::Env;
use crate::law::propagative::Contacts;
use crate::linalg::SymMatrix;
use num_rational::BigRational;

type R = Rational;

/// Seghete–Murphey Theorem 1: the minimal sequences (Def. 1, law code, exact, up to
/// length 64) of two normals, and the bound ⌈π/γ⌉ from `theorem1_ratio` on 256-bit MPFR
/// intervals (an error when the enclosure of π/γ contains an integer).
pub(crate) fn theorem1(inp: &Inputs) -> Result<Env<R>, String> {
    use crate::arith::MpInterval;
    let mut m = Vec::new();
    while inp.contains_key(&format!("m{}", m.len() + 1)) {
        m.push(get(inp, &format!("m{}", m.len() + 1))?);
    }
    let n = m.len();
    let normal = |a: usize| -> Result<Vec<BigRational>, String> {
        (1..=n).map(|i| get(inp, &format!("u{a}_{i}"))).collect()
    };
    let (u, v) = (normal(1)?, normal(2)?);
    let p: Vec<BigRational> = (1..=n)
        .map(|i| get(inp, &format!("p{i}")))
        .collect::<Result<_, _>>()?;
    let exact = Contacts::new(
        SymMatrix::diagonal(&m.iter().cloned().map(r).collect::<Vec<_>>()),
        vec![
            u.iter().cloned().map(r).collect(),
            v.iter().cloned().map(r).collect(),
        ],
    )
    .map_err(err)?;
    let p: Vec<R> = p.into_iter().map(r).collect();
    let seqs = crate::law::propagative::minimal_sequences(&exact, &p, 64).map_err(err)?;
    let lens: Vec<usize> = seqs.iter().map(|s| s.0.len()).collect();
    let mp = |x: &BigRational| MpInterval::from_rational(x, &256);
    let enc = Contacts::new(
        SymMatrix::diagonal(&m.iter().map(mp).collect::<Vec<_>>()),
        vec![u.iter().map(mp).collect(), v.iter().map(mp).collect()],
    )
    .map_err(err)?;
    let ratio = crate::law::propagative::theorem1_ratio(&enc, 0, 1).map_err(err)?;
    let (lo, hi) = ratio
        .rational_bounds()
        .ok_or("pi/gamma has no rational bounds")?;
    let (fl, fh) = (lo.floor(), hi.floor());
    if fl != fh || lo.is_integer() {
        return Err("the enclosure of pi/gamma contains an integer".into());
    }
    Ok(Env::from([
        ("count".into(), int(lens.len())),
        (
            "min_len".into(),
            int(lens.iter().copied().min().unwrap_or(0)),
        ),
        (
            "max_len".into(),
            int(lens.iter().copied().max().unwrap_or(0)),
        ),
        ("bound".into(), r(fl + BigRational::from_integer(1.into()))),
    ]))
}
