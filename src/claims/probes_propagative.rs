//! Probes into the Seghete–Murphey propagative model (`law::propagative`).

use super::probes::{err, get, int, r, Inputs};
use crate::arith::{Rational, Scalar};
use crate::lang::Env;
use crate::law::propagative::Contacts;
use crate::linalg::SymMatrix;
use num_rational::BigRational;

type R = Rational;

/// Seghete–Murphey (propagative), on a diagonal mass matrix: masses `m1`..`mn`, normals
/// `u{a}_{i}` (a = 1, 2, …), momentum `p1`..`pn`. Outputs (law code): `g_ab` = ⟨u_a, u_b⟩_g,
/// `rate_a` = ⟨p, u_a⟩_g, `energy` = ⟨p, p⟩_g, reflections `r{a}_{i}` = pΓ(u_a) and
/// `rr{a}_{i}` = pΓ(u_a)Γ(u_a), products `uv_i`, `vu_i`, `uvu_i`, `vuv_i` of normals 1, 2
/// with their feasibility `feas_uv` … (1/0), `fwd_i` = pΓ(u_1)…Γ(u_n) and `rev_i` (reverse
/// order) with `feas_fwd`, the plastic outcome (11) `pl_i`, and `feasible` (eq. (6)).
pub(super) fn reflections(inp: &Inputs) -> Result<Env<R>, String> {
    let mut m = Vec::new();
    while inp.contains_key(&format!("m{}", m.len() + 1)) {
        m.push(r(get(inp, &format!("m{}", m.len() + 1))?));
    }
    let n = m.len();
    let mut normals: Vec<Vec<R>> = Vec::new();
    while inp.contains_key(&format!("u{}_1", normals.len() + 1)) {
        let a = normals.len() + 1;
        normals.push(
            (1..=n)
                .map(|i| get(inp, &format!("u{a}_{i}")).map(r))
                .collect::<Result<_, _>>()?,
        );
    }
    let c = Contacts::new(SymMatrix::diagonal(&m), normals.clone()).map_err(err)?;
    let p: Vec<R> = (1..=n)
        .map(|i| get(inp, &format!("p{i}")).map(r))
        .collect::<Result<_, _>>()?;
    let mut out = Env::new();
    let put = |out: &mut Env<R>, name: &str, v: &[R]| {
        for (i, x) in v.iter().enumerate() {
            out.insert(format!("{name}_{}", i + 1), x.clone());
        }
    };
    let flag = |b: bool| int(usize::from(b));
    out.insert("feasible".into(), flag(c.feasible(&p).map_err(err)?));
    out.insert("energy".into(), c.inner(&p, &p).map_err(err)?);
    for a in 0..normals.len() {
        let ra = c.reflect(&p, a).map_err(err)?;
        put(&mut out, &format!("r{}", a + 1), &ra);
        put(
            &mut out,
            &format!("rr{}", a + 1),
            &c.reflect(&ra, a).map_err(err)?,
        );
        out.insert(
            format!("rate_{}", a + 1),
            c.inner(&p, &normals[a]).map_err(err)?,
        );
        for b in 0..normals.len() {
            out.insert(
                format!("g_{}{}", a + 1, b + 1),
                c.inner(&normals[a], &normals[b]).map_err(err)?,
            );
        }
    }
    if normals.len() >= 2 {
        for (name, seq) in [
            ("uv", vec![0, 1]),
            ("vu", vec![1, 0]),
            ("uvu", vec![0, 1, 0]),
            ("vuv", vec![1, 0, 1]),
        ] {
            let q = c.apply_sequence(&p, &seq).map_err(err)?;
            out.insert(format!("feas_{name}"), flag(c.feasible(&q).map_err(err)?));
            put(&mut out, name, &q);
        }
    }
    let all: Vec<usize> = (0..normals.len()).collect();
    let fwd = c.apply_sequence(&p, &all).map_err(err)?;
    out.insert("feas_fwd".into(), flag(c.feasible(&fwd).map_err(err)?));
    put(&mut out, "fwd", &fwd);
    let rev: Vec<usize> = all.iter().rev().copied().collect();
    put(&mut out, "rev", &c.apply_sequence(&p, &rev).map_err(err)?);
    if let Ok(pl) = c.plastic(&p) {
        put(&mut out, "pl", &pl);
    }
    Ok(out)
}

/// Seghete–Murphey Theorem 1: the minimal sequences (Def. 1, law code, exact, up to
/// length 64) of two normals, and the bound ⌈π/γ⌉ from `theorem1_ratio` on 256-bit MPFR
/// intervals (an error when the enclosure of π/γ contains an integer).
pub(super) fn theorem1(inp: &Inputs) -> Result<Env<R>, String> {
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
