//! The probes whose laws are written in Coq (`coq/*.v`, by hand from the papers), and how
//! a probe's outputs read as applications of those laws.

use super::term;
use num_rational::BigRational;

/// The Coq library files, embedded: written into the export folder's `lib/` and compiled
/// there, so that the folder checks on its own.
pub(crate) const LIBRARY: [(&str, &str); 9] = [
    ("Tactics.v", include_str!("../../../coq/Tactics.v")),
    ("Corner.v", include_str!("../../../coq/Corner.v")),
    ("Propagative.v", include_str!("../../../coq/Propagative.v")),
    ("Sequential.v", include_str!("../../../coq/Sequential.v")),
    ("Penny.v", include_str!("../../../coq/Penny.v")),
    ("Cradle.v", include_str!("../../../coq/Cradle.v")),
    ("Variational.v", include_str!("../../../coq/Variational.v")),
    ("Trex.v", include_str!("../../../coq/Trex.v")),
    ("Rods.v", include_str!("../../../coq/Rods.v")),
];

/// The library's modules, as a claim file imports them.
pub(crate) const IMPORTS: &str =
    "Tactics Corner Propagative Sequential Penny Cradle Variational Trex Rods";

/// The definitions a proof unfolds (every law definition of the library), each before
/// those it is written with (`unfold` takes them in this order).
pub(crate) const UNFOLD: &str = "fp6_first, fp6_count, fp6_in_a, fp6_in_b, fp6_in_c, \
     fp6_in_d, pq_rule10, pq_rule10_in, pq_ideal, pq_symmetric, \
     pq_asymmetric, pq_after, pq_impulse, pq_impacts, pq_goes_on, pq_both, fp_rho, fp_rho2, fp_h1, fp_h2, fp_beta, tr_nid_xe_in_xy, xy_of_xe, tr_nid_xe_in, tr_id, tr_nid, \
     tr_id_in, tr_nid_in, zone_of, xi_of, eta_of, zone_code, goes_on_code, multi_code, \
     beta_of, v1_perp, v2_perp, sm_reflect, sm_feasible3, sm_feasible2, sm_feasible1, \
     sm_plastic2, sm_plastic_a, sm_plastic_b, sm_plastic_det, sm_plastic1, sm_inner, sm_c1, \
     sm_bil_inner, sm_bil_middle, sm_bil_overlap, sm_bil_cos, sm_bil_ch, sm_bil_sh, \
     sm_c2, sm_c3, wl_law, wl_in, wl_apply, wl_cone_of, wl_newton, wl_poisson, wl_after, \
     wl_lcp, wl_impulse, wl_norm2, wl_g11, wl_g12, wl_g22, cb_plastic, cb_project, cb_det, \
     cb_a11, cb_a12, cb_a21, cb_a22, cb_W30_1, cb_W30_2, cb_a31_11, cb_a31_12, cb_a31_22, \
     cb_K31, cb_P32_row1, cb_P32_row2, cb_P32_row3, cb_P32_row4, cb_p28, cb_C29, cb_P, cb_rate_chain, cb_dH, cb_tilt, cb_omega1, cb_omega2, \
     cb_rolling, cb_dmom, cb_co, cb_sharp, cb_energy, cb_apply, cb_res_theta, cb_res_phi, \
     cb_xdd, cb_ydd, cb_1, cb_2, cb_3, cb_4, pq3_step, pq3_exit, pq3_multiple, pq3_beta, \
     pq3_s1, pq3_s2, pq3_rate1, pq3_rate2, pq_two, pq_single, pq_incoming, pq_minus, \
     pq_energy, pq_kin, pq_perp, pq_rate, var_next_p, var_fplus, var_fminus, var_next_q, \
     var_energy, var_ld, tr_ltail, tr_homothetic, wl_rod_closed, wl_rod_enter_r, \
     wl_rod_enter_l, wl_rod_gap, wl_rod_neg, wl_rod_vib, wl_rod_meet, wl_rod_ne, wl_rod_opening, wl_rod_v, wl_rod_s";

/// The start of the error for a probe without a Coq law.
pub(crate) const NO_LAW: &str = "no Coq law for the probe";

/// An input of a probe as a Coq term: the claim's mapping, else the variable of that name.
pub(crate) type Arg<'a> = &'a dyn Fn(&str) -> Result<String, String>;

/// Whether the claim gives a probe input (mapped, a variable or a derived quantity).
pub(crate) type Has<'a> = &'a dyn Fn(&str) -> bool;

/// A probe input as the claim writes it (a word such as `zones = "12121"`), if given.
pub(crate) type Word<'a> = &'a dyn Fn(&str) -> Option<String>;

/// A probe's outputs as Coq terms, and where the law is defined.
#[derive(Default)]
pub(crate) struct Outputs {
    /// `(output name, term)`, each using only earlier ones.
    pub(crate) lets: Vec<(String, String)>,
    /// `(output name, term)`: the term must be nonzero where the output is used (the
    /// law's divisor; `""` for the whole probe). These are premises of the statement: where
    /// the law is undefined the claim states nothing, as impactkit's probe returns an
    /// error there.
    pub(crate) nonzero: Vec<(String, String)>,
    /// `(output name, proposition)`: further conditions under which the law is defined
    /// (a radius positive, an angle in its range), premises like `nonzero`.
    pub(crate) premises: Vec<(String, String)>,
    /// `(output name, let name)`: the output exists only where that `let` is 0 (a
    /// velocity of a run exists only for the steps the run takes). A conclusion on the
    /// output states this too, as impactkit reports a missing output, never a verdict.
    pub(crate) defined: Vec<(String, String)>,
    /// Whether the proof walks the `let`s one by one instead of expanding them: a run (a
    /// chain of laws applied to earlier outputs), or a law whose branches every output
    /// repeats (the sequential law's LCPs: expanded, their branches multiply past the
    /// time limit).
    pub(crate) chain: bool,
}

/// The outputs of `probe` as Coq terms, in an order where each uses only earlier ones
/// (named with `prefix`): `(output name, term)`. `zone` is a forced zone's code (the
/// input `force_zone`), if any.
pub(crate) fn outputs(
    probe: &str,
    arg: Arg,
    has: Has,
    zone: Option<&BigRational>,
    word: Word,
    prefix: &str,
) -> Result<Outputs, String> {
    let p = |n: &str| format!("{prefix}{n}");
    let lets = |lets| Outputs {
        lets,
        ..Outputs::default()
    };
    match probe {
        "corner.tr_id_xy" | "corner.tr_nid_xy" | "corner.tr_nid_xi_eta" | "corner.asymmetric" => {
            let (k, x, y) = (arg("k")?, arg("x")?, arg("y")?);
            let forced = match zone {
                None => None,
                Some(z) => Some(match term::number(z).as_str() {
                    "0" => "Z0",
                    "1" => "Z1",
                    "2" => "Z2",
                    "12" => "Z12",
                    o => return Err(format!("force_zone: expected 0, 1, 2 or 12, got {o}")),
                }),
            };
            let law = match (probe, forced) {
                ("corner.tr_id_xy", None) => format!("tr_id {k} {x} {y}"),
                ("corner.tr_id_xy", Some(z)) => format!("tr_id_in {z} {k} {x} {y}"),
                ("corner.tr_nid_xy", None) => format!("tr_nid {k} {} {x} {y}", arg("eps")?),
                ("corner.tr_nid_xy", Some(z)) => {
                    format!("tr_nid_in {z} {k} {} {x} {y}", arg("eps")?)
                }
                // Pasquero's rule (10) on the corner
                ("corner.asymmetric", None) => {
                    format!("pq_rule10 {k} {} {} {x} {y}", arg("eps1")?, arg("eps2")?)
                }
                ("corner.asymmetric", Some(z)) => {
                    format!(
                        "pq_rule10_in {z} {k} {} {} {x} {y}",
                        arg("eps1")?,
                        arg("eps2")?
                    )
                }
                // (14a-14d) in the zone of v: the zones of (14) and (13) are one partition
                (_, None) => format!(
                    "tr_nid_xe_in_xy (zone_of {k} {x} {y}) {k} {} {x} {y}",
                    arg("eps")?
                ),
                (_, Some(z)) => format!("tr_nid_xe_in_xy {z} {k} {} {x} {y}", arg("eps")?),
            };
            let z = match forced {
                Some(z) => z.to_string(),
                None => format!("(zone_of {k} {x} {y})"),
            };
            let (x1, y1) = (p("x1"), p("y1"));
            Ok(lets(vec![
                (x1.clone(), format!("fst ({law})")),
                (y1.clone(), format!("snd ({law})")),
                (p("zone"), format!("zone_code {z}")),
                (p("xi"), format!("xi_of {k} {x} {y}")),
                (p("eta"), format!("eta_of {k} {x} {y}")),
                (p("xi1"), format!("xi_of {k} {x1} {y1}")),
                (p("eta1"), format!("eta_of {k} {x1} {y1}")),
                (p("goes_on"), format!("goes_on_code {z}")),
                (p("multi"), format!("multi_code {z}")),
                (p("zone1"), format!("zone_code (zone_of {k} {x1} {y1})")),
                (
                    p("multi_next"),
                    format!("multi_code (zone_of {k} {x1} {y1})"),
                ),
            ]))
        }
        "corner.zones" => {
            let (k, x, y) = (arg("k")?, arg("x")?, arg("y")?);
            Ok(lets(vec![
                (p("zone"), format!("zone_code (zone_of {k} {x} {y})")),
                (p("phi_count"), format!("fp6_count {k} {x} {y}")),
                (p("phi_zone"), format!("fp6_first {k} {x} {y}")),
                (p("in6a"), format!("fp6_in_a {k} {x} {y}")),
                (p("in6b"), format!("fp6_in_b {k} {x} {y}")),
                (p("in6c"), format!("fp6_in_c {k} {x} {y}")),
                (p("in6d"), format!("fp6_in_d {k} {x} {y}")),
            ]))
        }
        "corner.orthogonal" => {
            let (k, x, y) = (arg("k")?, arg("x")?, arg("y")?);
            Ok(lets(vec![
                (p("v1x"), format!("fst (v1_perp {k} {x} {y})")),
                (p("v1y"), format!("snd (v1_perp {k} {x} {y})")),
                (p("v2x"), format!("fst (v2_perp {k} {x} {y})")),
                (p("v2y"), format!("snd (v2_perp {k} {x} {y})")),
                (p("v12x"), x.clone()),
                (p("v12y"), y.clone()),
                (p("beta"), format!("beta_of {k} {x} {y}")),
            ]))
        }
        "corner.h" => {
            let (k, e) = (arg("k")?, arg("eps")?);
            let mut out = Vec::new();
            for h in ["h1", "h2"] {
                for (i, row) in ["fst", "snd"].iter().enumerate() {
                    for (j, col) in ["fst", "snd"].iter().enumerate() {
                        out.push((
                            p(&format!("{h}_{}{}", i + 1, j + 1)),
                            format!("{col} ({row} (fp_{h} {k} {e}))"),
                        ));
                    }
                }
            }
            Ok(lets(out))
        }
        "corner.compose" => compose(arg, has, word, &p),
        // ρ(H₁), the proof of Theorem 5.3: the probe's 256-bit enclosure [rho_lo, rho_hi]
        // is, in Coq, the exact value at both ends (a point encloses itself)
        // (fp_rho k eps, written through its trace and determinant, each a value of its
        // own that the walk computes exactly)
        "corner.rho" => {
            let h = format!("(fp_h1 {} {})", arg("k")?, arg("eps")?);
            let trace = format!("fst (fst {h}) + snd (snd {h})");
            let det = format!("fst (fst {h}) * snd (snd {h}) - snd (fst {h}) * fst (snd {h})");
            Ok(lets(vec![
                (p("rho_trace"), trace),
                (p("rho_det"), det),
                (
                    p("rho"),
                    format!("fp_rho2 {} {}", p("rho_trace"), p("rho_det")),
                ),
                (p("rho_lo"), p("rho")),
                (p("rho_hi"), p("rho")),
            ]))
        }
        "char.corner" => {
            let (k, x, y) = (arg("k")?, arg("x")?, arg("y")?);
            let law = match word("rule").as_deref().unwrap_or("asymmetric") {
                "ideal" => format!("pq_ideal {k} {x} {y}"),
                "symmetric" => format!("pq_symmetric {k} {} {x} {y}", arg("eps")?),
                "asymmetric" => format!(
                    "pq_asymmetric {k} {} {} {x} {y}",
                    arg("eps1")?,
                    arg("eps2")?
                ),
                other => return Err(format!("char.corner: unknown rule {other}")),
            };
            Ok(lets(vec![
                (p("x1"), format!("fst ({law})")),
                (p("y1"), format!("snd ({law})")),
                (p("impacts"), format!("pq_impacts {k} {x} {y}")),
            ]))
        }
        "propagative" => propagative(arg, has, &p),
        "sequential.law" => sequential(arg, has, &p),
        "penny.maps" => penny_maps(arg, has, word, &p),
        "penny.eq12" => penny_eq12(arg, &p),
        "penny.printed" => penny_printed(arg, word, &p),
        "billiard.break" | "billiard.overlap" => billiard(probe, arg, has, &p),
        "cradle.run" => cradle_run(arg, has, word, &p),
        "char.single" => char_single(arg, has, &p),
        "char.step" => char_step(arg, has, word, &p),
        "variational.del" => variational_del(arg, has, &p),
        "trex.ltail" => trex_ltail(arg, has, &p),
        "rods" | "rods.states" => rods(probe, arg, has, word, &p),
        "corner.asym_run" => corner_run(arg, has, &p),
        other => Err(format!("{NO_LAW} {other} yet")),
    }
}

/// The impacts of a run of Pasquero's rule (10) on the corner (`corner.asym_run`, no
/// thresholds) within the horizon of the Coq statement: the outputs of a longer run do
/// not exist in the Coq law (its walk at a witness grew past the time limit at 16 steps
/// and took seconds at 8, session 83).
const CORNER_RUN_HORIZON: usize = 8;

/// Pasquero Sect. 4.2: rule (10) iterated from (x, y), unrolled over
/// [`CORNER_RUN_HORIZON`] steps as a chain of `let`s; each step is (7) on the corner
/// (`pq_asymmetric` in `coq/Corner.v`: the same map as rule (10) zone by zone, written
/// with the incoming tests (9) only, which a walk decides at once). Rule (10) keeps a
/// velocity of Z0, so after the exit every step keeps the exit velocity: the outputs are
/// the velocity after the last step (`xf`, `yf`), the steps taken outside Z0 (`steps`),
/// those in Z12 (`multiple`) and the zone of the entrance velocity (`zone0`); they exist
/// where the run has exited within the horizon (the last velocity is in Z0).
fn corner_run(arg: Arg, has: Has, p: &dyn Fn(&str) -> String) -> Result<Outputs, String> {
    if has("max_steps") || has("threshold") {
        return Err(
            "corner.asym_run with a step limit or a threshold: no Coq law for it yet".into(),
        );
    }
    let (k, e1, e2) = (arg("k")?, arg("eps1")?, arg("eps2")?);
    let (mut x, mut y) = (arg("x")?, arg("y")?);
    let mut out = Outputs {
        chain: true,
        ..Outputs::default()
    };
    out.lets
        .push((p("zone0"), format!("zone_code (zone_of {k} {x} {y})")));
    let (mut steps, mut multiple) = (Vec::new(), Vec::new());
    for w in 1..=CORNER_RUN_HORIZON {
        let (go, multi) = (p(&format!("ik_go{w}")), p(&format!("ik_multi{w}")));
        out.lets
            .push((go.clone(), format!("pq_goes_on {k} {x} {y}")));
        out.lets
            .push((multi.clone(), format!("pq_both {k} {x} {y}")));
        steps.push(go);
        multiple.push(multi);
        let (xn, yn) = (p(&format!("ik_x{w}")), p(&format!("ik_y{w}")));
        let law = format!("pq_asymmetric {k} {e1} {e2} {x} {y}");
        out.lets.push((xn.clone(), format!("fst ({law})")));
        out.lets.push((yn.clone(), format!("snd ({law})")));
        (x, y) = (xn, yn);
    }
    let going = p("ik_going");
    out.lets
        .push((going.clone(), format!("pq_goes_on {k} {x} {y}")));
    out.lets.push((p("xf"), x));
    out.lets.push((p("yf"), y));
    out.lets.push((p("steps"), steps.join(" + ")));
    out.lets.push((p("multiple"), multiple.join(" + ")));
    for o in ["xf", "yf", "steps", "multiple"] {
        out.defined.push((p(o), going.clone()));
    }
    out.premises.push((String::new(), format!("0 < {k}")));
    Ok(out)
}

/// Winandy–Leine Sect. 4 (`coq/Rods.v`): identical rods with the velocities `u1`, `u2`,
/// … (2 to 4 rods), undeformed and touching at t = 0, each cut into `cells` cells of equal
/// transit time (`rods`: 1; `rods.states`: the input `cells`, 2 by default), stepped by
/// Table 1 over 2n rod transit times as a chain of `let`s: per lattice step each
/// contact's state, the waves entering each rod at its ends (inside a rod they move on
/// one cell) and each gap. Outputs: `out1`, … (the velocities after the impact), `gm*`
/// and `gp*` (the relative velocities before and after), `vibrating`, and for
/// `rods.states` each cell's state `t<k>_r<i>_c<j>_{v,e}` (lattice time k) and the time
/// `open_<c>` at which contact c opens for the last time (in transit times). A state at
/// time k exists where no gap became negative up to k; the others where, in addition, at
/// the horizon no rod vibrates or is strained and neighbours do not approach.
fn rods(
    probe: &str,
    arg: Arg,
    has: Has,
    word: Word,
    p: &dyn Fn(&str) -> String,
) -> Result<Outputs, String> {
    let mut u = Vec::new();
    while has(&format!("u{}", u.len() + 1)) {
        u.push(arg(&format!("u{}", u.len() + 1))?);
    }
    if !(2..=4).contains(&u.len()) {
        return Err(format!(
            "rods: {} rods (the Coq law covers 2 to 4 identical rods)",
            u.len()
        ));
    }
    let states = probe == "rods.states";
    let cells: usize = match (states, word("cells")) {
        (false, _) => 1,
        (true, None) => 2,
        (true, Some(w)) => w
            .trim()
            .parse()
            .ok()
            .filter(|c| (1..=8).contains(c))
            .ok_or(format!(
                "rods.states: cells = {w} (the Coq law covers 1 to 8)"
            ))?,
    };
    let n = u.len();
    let mut out = Outputs {
        chain: true,
        ..Outputs::default()
    };
    // each rod's right- and left-going waves per cell, and the gaps
    let mut r: Vec<Vec<String>> = u.iter().map(|x| vec![x.clone(); cells]).collect();
    let mut l = r.clone();
    let mut g = vec!["0".to_string(); n - 1];
    let mut bad = "0".to_string();
    let mut opened = vec!["0".to_string(); n - 1];
    let mut before: Vec<String> = Vec::new();
    let snapshot =
        |out: &mut Outputs, t: usize, r: &[Vec<String>], l: &[Vec<String>], bad: &str| {
            for i in 0..n {
                for j in 0..cells {
                    for (q, f) in [("v", "wl_rod_v"), ("e", "wl_rod_s")] {
                        let o = p(&format!("t{t}_r{}_c{}_{q}", i + 1, j + 1));
                        out.lets
                            .push((o.clone(), format!("{f} {} {}", r[i][j], l[i][j])));
                        if t > 0 {
                            out.defined.push((o, bad.to_string()));
                        }
                    }
                }
            }
        };
    if states {
        snapshot(&mut out, 0, &r, &l, &bad);
    }
    for t in 1..=2 * n * cells {
        let c: Vec<String> = (0..n - 1).map(|k| p(&format!("ik_c{t}_{k}"))).collect();
        for k in 0..n - 1 {
            out.lets.push((
                c[k].clone(),
                format!("wl_rod_closed {} {} {}", g[k], r[k][cells - 1], l[k + 1][0]),
            ));
        }
        // a contact closed over the step before and open over this one opened at t − 1
        if states && t > 1 {
            for k in 0..n - 1 {
                let o = p(&format!("ik_o{t}_{k}"));
                out.lets.push((
                    o.clone(),
                    format!(
                        "wl_rod_opening {} {} ({} / {cells}) {}",
                        before[k],
                        c[k],
                        t - 1,
                        opened[k]
                    ),
                ));
                opened[k] = o;
            }
        }
        let mut next = (Vec::new(), Vec::new(), Vec::new());
        for k in 0..n {
            let (rn, ln) = (p(&format!("ik_r{t}_{k}")), p(&format!("ik_l{t}_{k}")));
            let (cl, rprev) = match k {
                0 => ("0", "0"),
                _ => (c[k - 1].as_str(), r[k - 1][cells - 1].as_str()),
            };
            let (cr, lnext) = match k + 1 < n {
                true => (c[k].as_str(), l[k + 1][0].as_str()),
                false => ("0", "0"),
            };
            out.lets.push((
                rn.clone(),
                format!("wl_rod_enter_r {cl} {rprev} {}", l[k][0]),
            ));
            out.lets.push((
                ln.clone(),
                format!("wl_rod_enter_l {cr} {} {lnext}", r[k][cells - 1]),
            ));
            // inside the rod each wave moves on one cell (Table 1, crossing waves)
            let mut rk = vec![rn];
            rk.extend(r[k][..cells - 1].iter().cloned());
            let mut lk: Vec<String> = l[k][1..].to_vec();
            lk.push(ln);
            next.0.push(rk);
            next.1.push(lk);
        }
        let mut negs = vec![bad.clone()];
        for k in 0..n - 1 {
            let gn = p(&format!("ik_g{t}_{k}"));
            out.lets.push((
                gn.clone(),
                format!(
                    "wl_rod_gap {} {} {} {}",
                    c[k],
                    g[k],
                    r[k][cells - 1],
                    l[k + 1][0]
                ),
            ));
            negs.push(format!("wl_rod_neg {gn}"));
            next.2.push(gn);
        }
        bad = p(&format!("ik_bad{t}"));
        out.lets.push((bad.clone(), negs.join(" + ")));
        (r, l, g) = next;
        before = c;
        if states {
            snapshot(&mut out, t, &r, &l, &bad);
        }
    }
    let v: Vec<String> = (1..=n).map(|k| p(&format!("out{k}"))).collect();
    for k in 0..n {
        let mean = (0..cells)
            .map(|j| format!("wl_rod_v {} {}", r[k][j], l[k][j]))
            .collect::<Vec<_>>()
            .join(" + ");
        let mean = match cells {
            1 => mean,
            _ => format!("({mean}) / {cells}"),
        };
        out.lets.push((v[k].clone(), mean));
    }
    // a rod strained in a cell, or whose cells move at different velocities, vibrates
    let mut vib = Vec::new();
    for k in 0..n {
        for j in 0..cells {
            vib.push(format!("wl_rod_vib {} {}", r[k][j], l[k][j]));
            if j + 1 < cells {
                vib.push(format!(
                    "wl_rod_ne (wl_rod_v {} {}) (wl_rod_v {} {})",
                    r[k][j],
                    l[k][j],
                    r[k][j + 1],
                    l[k][j + 1]
                ));
            }
        }
    }
    out.lets.push((p("vibrating"), vib.join(" + ")));
    let mut unsettled = vec![bad, p("vibrating")];
    for k in 0..n - 1 {
        unsettled.push(format!("wl_rod_meet {} {}", v[k], v[k + 1]));
        out.lets.push((
            p(&format!("gm{}", k + 1)),
            format!("{} - {}", u[k + 1], u[k]),
        ));
        out.lets.push((
            p(&format!("gp{}", k + 1)),
            format!("{} - {}", v[k + 1], v[k]),
        ));
        if states {
            out.lets
                .push((p(&format!("open_{}", k + 1)), opened[k].clone()));
        }
    }
    let ok = p("ik_unsettled");
    out.lets.push((ok.clone(), unsettled.join(" + ")));
    let mut outputs = v.clone();
    outputs.push(p("vibrating"));
    for k in 1..n {
        outputs.extend([p(&format!("gm{k}")), p(&format!("gp{k}"))]);
        if states {
            outputs.push(p(&format!("open_{k}")));
        }
    }
    out.defined
        .extend(outputs.into_iter().map(|o| (o, ok.clone())));
    Ok(out)
}

/// Seghete–Murphey Sect. VI on a particle under a constant force (`coq/Variational.v`):
/// two steps of the midpoint integrator from (q0, p0), the momentum maps F⁺(t0, t1) and
/// F⁻(t1, t2) of (29), their sum (28) and the energies at t0 and t2. A spring (`k`) is
/// not in the Coq law yet.
fn variational_del(arg: Arg, has: Has, p: &dyn Fn(&str) -> String) -> Result<Outputs, String> {
    if has("k") {
        return Err("variational.del with a spring (k): no Coq law for it yet".into());
    }
    let (m, f, h, q0, p0) = (arg("m")?, arg("f")?, arg("h")?, arg("q0")?, arg("p0")?);
    let law = |name: &str, a: &str, b: &str| format!("{name} {m} {f} {h} {a} {b}");
    let (q1, p1, q2, p2) = (p("q1"), p("p1"), p("q2"), p("p2"));
    let lets = vec![
        (q1.clone(), law("var_next_q", &q0, &p0)),
        (p1.clone(), law("var_next_p", &q0, &p0)),
        (q2.clone(), law("var_next_q", &q1, &p1)),
        (p2.clone(), law("var_next_p", &q1, &p1)),
        (p("fplus"), law("var_fplus", &q0, &q1)),
        (p("fminus"), law("var_fminus", &q1, &q2)),
        (p("del"), format!("{} + {}", p("fplus"), p("fminus"))),
        (p("energy0"), format!("var_energy {m} {f} {q0} {p0}")),
        (p("energy2"), format!("var_energy {m} {f} {q2} {p2}")),
    ];
    Ok(Outputs {
        lets,
        // the step divides by m and h: where either is 0 the probe has no outputs
        nonzero: vec![(String::new(), m.clone()), (String::new(), h.clone())],
        ..Outputs::default()
    })
}

/// Seghete–Murphey Sect. VII-B, the display for L_tail (`coq/Trex.v`): the tail length at
/// (r1, r2) and at (k r1, k r2) (k = 2 by default), c = L_tail·r1/r2 at both, and the
/// homothetic length. The probe gives each length as a certified enclosure `_lo`, `_hi`;
/// in Coq both ends are the exact value (a point encloses itself), so the theorem states
/// the relation between the exact lengths that the enclosures certify. Premises: r1² ≠ r2²
/// (the divisor) and the radicand ≥ 0 (where the probe has no outputs otherwise).
fn trex_ltail(arg: Arg, has: Has, p: &dyn Fn(&str) -> String) -> Result<Outputs, String> {
    let (r1, r2) = (arg("r1")?, arg("r2")?);
    let k = match has("k") {
        true => arg("k")?,
        false => "2".to_string(),
    };
    let (k1, k2) = (format!("({k} * {r1})"), format!("({k} * {r2})"));
    let ratio = format!("({r1} / {r2})");
    let mut lets = Vec::new();
    for (name, a, b) in [("ltail", &r1, &r2), ("scaled", &k1, &k2)] {
        lets.push((p(name), format!("tr_ltail {a} {b}")));
        lets.push((p(&format!("{name}_lo")), p(name)));
        lets.push((p(&format!("{name}_hi")), p(name)));
    }
    for (name, of) in [("c", "ltail"), ("ck", "scaled")] {
        lets.push((p(&format!("{name}_lo")), format!("{} * {ratio}", p(of))));
        lets.push((p(&format!("{name}_hi")), format!("{} * {ratio}", p(of))));
    }
    lets.push((p("homothetic"), format!("tr_homothetic {r1} {r2}")));
    lets.push((p("k"), k.clone()));
    let radicand = |a: &str, b: &str| format!("0 <= {a} ^ 4 * {b} ^ 2 + {a} ^ 3 * {b} ^ 3");
    Ok(Outputs {
        lets,
        nonzero: vec![
            (String::new(), format!("{r1} ^ 2 - {r2} ^ 2")),
            (String::new(), format!("{k1} ^ 2 - {k2} ^ 2")),
            (String::new(), r2.clone()),
            (String::new(), format!("{r1} - {r2}")),
        ],
        premises: vec![
            (String::new(), radicand(&r1, &r2)),
            (String::new(), radicand(&k1, &k2)),
        ],
        ..Outputs::default()
    })
}

/// Fassino–Pasquero's rule applied in stated zones (`zones`: a digit per step, 3 for
/// Z12): TR_id (3a–3d) without `eps`, TR_nid (13a–13d) with it, whatever zone eq. (1)
/// assigns; outputs `x{i} y{i} xi{i} eta{i}` for i = 0 (the input) and after each step,
/// a chain of `let`s.
fn compose(arg: Arg, has: Has, word: Word, p: &dyn Fn(&str) -> String) -> Result<Outputs, String> {
    let (k, x, y) = (arg("k")?, arg("x")?, arg("y")?);
    let eps = has("eps").then(|| arg("eps")).transpose()?;
    let rule = |z: &str| match &eps {
        Some(e) => format!("tr_nid_in {z} {k} {e}"),
        None => format!("tr_id_in {z} {k}"),
    };
    let zones = word("zones").ok_or("probe input `zones` missing")?;
    let mut out = vec![(p("x0"), x), (p("y0"), y)];
    for (i, c) in zones.chars().enumerate() {
        let z = match c {
            '0' => "Z0",
            '1' => "Z1",
            '2' => "Z2",
            '3' => "Z12",
            o => return Err(format!("zones: expected digits 0, 1, 2, 3 (Z12), got {o}")),
        };
        let (xp, yp) = (p(&format!("x{i}")), p(&format!("y{i}")));
        let step = format!("{} {xp} {yp}", rule(z));
        out.push((p(&format!("x{}", i + 1)), format!("fst ({step})")));
        out.push((p(&format!("y{}", i + 1)), format!("snd ({step})")));
    }
    for i in 0..=zones.len() {
        let (xi, yi) = (p(&format!("x{i}")), p(&format!("y{i}")));
        out.push((p(&format!("xi{i}")), format!("xi_of {k} {xi} {yi}")));
        out.push((p(&format!("eta{i}")), format!("eta_of {k} {xi} {yi}")));
    }
    // a chain: each step applies the rule to the previous step's outputs, walked `let` by
    // `let` (expanded, six steps were past the time limit)
    Ok(Outputs {
        lets: out,
        chain: true,
        ..Outputs::default()
    })
}

/// Seghete–Murphey's `propagative` probe (`coq/Propagative.v`): three coordinates with
/// the masses `m1 m2 m3`, one to three normals `u{a}_{i}`, the momentum `p1 p2 p3`.
fn propagative(arg: Arg, has: Has, p: &dyn Fn(&str) -> String) -> Result<Outputs, String> {
    if !has("m1") || !has("m3") || has("m4") || !has("p1") {
        return Err(
            "the propagative model in Coq has three coordinates (m1 m2 m3, p1 p2 p3)".into(),
        );
    }
    let triple = |f: &dyn Fn(usize) -> String| -> Result<String, String> {
        Ok(format!(
            "({}, {}, {})",
            arg(&f(1))?,
            arg(&f(2))?,
            arg(&f(3))?
        ))
    };
    let m = triple(&|i| format!("m{i}"))?;
    let mom = triple(&|i| format!("p{i}"))?;
    let k = (1..=3).take_while(|a| has(&format!("u{a}_1"))).count();
    if k == 0 || has("u4_1") {
        return Err("the propagative model in Coq has one to three normals (u1_i .. u3_i)".into());
    }
    let u: Vec<String> = (1..=k)
        .map(|a| triple(&|i| format!("u{a}_{i}")))
        .collect::<Result<_, _>>()?;
    let mut out = Outputs::default();
    for ua in &u {
        out.nonzero
            .push((String::new(), format!("sm_inner {m} {ua} {ua}")));
    }
    // a covector output: its three components, named `name_i`
    let vec3 = |out: &mut Outputs, name: &str, t: &str| {
        for (i, c) in ["sm_c1", "sm_c2", "sm_c3"].iter().enumerate() {
            out.lets
                .push((p(&format!("{name}_{}", i + 1)), format!("{c} ({t})")));
        }
    };
    // the covector named `name` (its components' `let`s) as a triple
    let named = |name: &str| {
        format!(
            "({}, {}, {})",
            p(&format!("{name}_1")),
            p(&format!("{name}_2")),
            p(&format!("{name}_3"))
        )
    };
    let feasible = |q: &str| match k {
        1 => format!("sm_feasible1 {m} {} {q}", u[0]),
        2 => format!("sm_feasible2 {m} {} {} {q}", u[0], u[1]),
        _ => format!("sm_feasible3 {m} {} {} {} {q}", u[0], u[1], u[2]),
    };
    out.lets.push((p("feasible"), feasible(&mom)));
    out.lets
        .push((p("energy"), format!("sm_inner {m} {mom} {mom}")));
    for (a, ua) in u.iter().enumerate() {
        let r = format!("r{}", a + 1);
        vec3(&mut out, &r, &format!("sm_reflect {m} {ua} {mom}"));
        vec3(
            &mut out,
            &format!("rr{}", a + 1),
            &format!("sm_reflect {m} {ua} {}", named(&r)),
        );
        out.lets.push((
            p(&format!("rate_{}", a + 1)),
            format!("sm_inner {m} {mom} {ua}"),
        ));
        for (b, ub) in u.iter().enumerate() {
            out.lets.push((
                p(&format!("g_{}{}", a + 1, b + 1)),
                format!("sm_inner {m} {ua} {ub}"),
            ));
        }
    }
    // (14): p Γ(w1)⋯Γ(wn), each step applied to the previous one's named outcome
    let seq = |out: &mut Outputs, name: &str, from: &str, w: &str, feas: bool| {
        vec3(out, name, &format!("sm_reflect {m} {w} {from}"));
        if feas {
            out.lets
                .push((p(&format!("feas_{name}")), feasible(&named(name))));
        }
    };
    if k >= 2 {
        let (uu, vv) = (&u[0], &u[1]);
        seq(&mut out, "uv", &named("r1"), vv, true);
        seq(&mut out, "vu", &named("r2"), uu, true);
        seq(&mut out, "uvu", &named("uv"), uu, true);
        seq(&mut out, "vuv", &named("vu"), vv, true);
    }
    // fwd = p Γ(u1)⋯Γ(uk), rev = p Γ(uk)⋯Γ(u1)
    let mut from = mom.clone();
    for (a, ua) in u.iter().enumerate() {
        let name = if a + 1 == k {
            "fwd".to_string()
        } else {
            format!("fwd{}", a + 1)
        };
        seq(&mut out, &name, &from, ua, a + 1 == k);
        from = named(&name);
    }
    let mut from = mom.clone();
    for (a, ua) in u.iter().enumerate().rev() {
        let name = if a == 0 {
            "rev".to_string()
        } else {
            format!("rev{}", a + 1)
        };
        seq(&mut out, &name, &from, ua, false);
        from = named(&name);
    }
    match k {
        1 => vec3(&mut out, "pl", &format!("sm_plastic1 {m} {} {mom}", u[0])),
        2 => {
            vec3(
                &mut out,
                "pl",
                &format!("sm_plastic2 {m} {} {} {mom}", u[0], u[1]),
            );
            for i in 1..=3 {
                out.nonzero.push((
                    p(&format!("pl_{i}")),
                    format!("sm_plastic_det {m} {} {}", u[0], u[1]),
                ));
            }
        }
        _ => {}
    }
    Ok(out)
}

/// Winandy–Leine's `sequential.law` probe (`coq/Sequential.v`) for three balls of equal
/// mass `m` (1 if not given) at the contact velocities `g1 g2`: the cone, γ⁺ by (19), the
/// impulse (6), the G⁻¹-norms, and the generalised Newton and Poisson laws with e = 1;
/// and, with or without them, the entries `q_{cone}_{rc}` of the matrices Q_i of (23).
fn sequential(arg: Arg, has: Has, p: &dyn Fn(&str) -> String) -> Result<Outputs, String> {
    if ["m1", "m2", "m3"].iter().any(|n| has(n)) {
        return Err("the sequential law in Coq has three equal masses (`m`)".into());
    }
    // the matrices Q_i of (23), entry (r, c) the r-th component of Q_i applied to e_c
    let mut lets = Vec::new();
    for c in ["I", "IIa", "IIb", "III", "IVa", "IVb"] {
        for (col, e) in ["1 0", "0 1"].iter().enumerate() {
            for (row, f) in ["fst", "snd"].iter().enumerate() {
                lets.push((
                    p(&format!("q_{c}_{}{}", row + 1, col + 1)),
                    format!("{f} (wl_apply C{c} {e})"),
                ));
            }
        }
    }
    if !has("g1") || !has("g2") {
        return Ok(Outputs {
            lets,
            ..Outputs::default()
        });
    }
    let m = if has("m") { arg("m")? } else { "1".into() };
    let (g1, g2) = (arg("g1")?, arg("g2")?);
    for c in ["I", "IIa", "IIb", "III", "IVa", "IVb"] {
        lets.push((p(&format!("in_{c}")), format!("wl_in C{c} {g1} {g2}")));
    }
    let (gp1, gp2) = (p("gp1"), p("gp2"));
    lets.push((gp1.clone(), format!("fst (wl_law {g1} {g2})")));
    lets.push((gp2.clone(), format!("snd (wl_law {g1} {g2})")));
    let lam = format!("wl_impulse {m} ({gp1} - {g1}) ({gp2} - {g2})");
    lets.push((p("lam1"), format!("fst ({lam})")));
    lets.push((p("lam2"), format!("snd ({lam})")));
    lets.push((p("norm_minus"), format!("wl_norm2 {m} {g1} {g2}")));
    lets.push((p("norm_plus"), format!("wl_norm2 {m} {gp1} {gp2}")));
    for (name, law) in [("newton_gp", "wl_newton"), ("poisson_gp", "wl_poisson")] {
        lets.push((
            p(&format!("{name}1")),
            format!("fst ({law} {m} 1 {g1} {g2})"),
        ));
        lets.push((
            p(&format!("{name}2")),
            format!("snd ({law} {m} 1 {g1} {g2})"),
        ));
    }
    let nonzero = match has("m") {
        true => vec![(String::new(), m)],
        false => Vec::new(),
    };
    Ok(Outputs {
        lets,
        nonzero,
        chain: true,
        ..Outputs::default()
    })
}

/// Whether the probe input `maps` names `map` (words split at spaces, commas or
/// underscores, as the Clark–Bloch probes read it); every map when `maps` is absent.
fn wants(word: Word, map: &str) -> bool {
    word("maps").is_none_or(|m| m.split([' ', ',', '_']).any(|w| w == map))
}

/// Clark–Bloch's `penny.maps` probe (`coq/Penny.v`): the variational impact P (5) with its
/// momentum jump and constraint values, the printed (28)–(29), the rates, and (with
/// `maps` naming `plastic`) the plastic map (18); the elastic map of Proposition 4.1 is
/// not written in Coq yet.
fn penny_maps(
    arg: Arg,
    has: Has,
    word: Word,
    p: &dyn Fn(&str) -> String,
) -> Result<Outputs, String> {
    let wants = |m: &str| wants(word, m);
    if wants("elastic") || wants("projection") {
        return Err("the penny's elastic map and projection outputs have no Coq law yet".into());
    }
    let sg = match word("end").as_deref() {
        None | Some("front") => "1",
        Some("back") => "(-1)",
        Some(o) => return Err(format!("end: expected front or back, got {o}")),
    };
    let (m, rd, i, j) = (arg("m")?, arg("R")?, arg("I")?, arg("J")?);
    let (c, s, hx, hy) = (arg("c")?, arg("s")?, arg("hx")?, arg("hy")?);
    let v = match has("thd") {
        true => format!("(cb_rolling {rd} {c} {s} {} {})", arg("thd")?, arg("phd")?),
        false => format!(
            "({}, {}, {}, {})",
            arg("vx")?,
            arg("vy")?,
            arg("vth")?,
            arg("vph")?
        ),
    };
    let dh = format!("(cb_dH {sg} {rd} {c} {s} {hx} {hy})");
    let (mij, o1, o2) = (
        format!("{m} {i} {j}"),
        format!("(cb_omega1 {rd} {c})"),
        format!("(cb_omega2 {rd} {s})"),
    );
    let mut out = Outputs::default();
    let quad = |out: &mut Outputs, name: &str, t: &str| {
        for (k, f) in ["cb_1", "cb_2", "cb_3", "cb_4"].iter().enumerate() {
            out.lets
                .push((p(&format!("{name}_{}", k + 1)), format!("{f} ({t})")));
        }
    };
    let named = |name: &str| {
        let c: Vec<String> = (1..=4).map(|k| p(&format!("{name}_{k}"))).collect();
        format!("({}, {}, {}, {})", c[0], c[1], c[2], c[3])
    };
    // an outcome x of a map: x, its momentum jump, its constraint values (and energy)
    let outcome = |out: &mut Outputs, name: &str, x: &str| {
        quad(out, name, x);
        let x = named(name);
        quad(out, &format!("d{name}"), &format!("cb_dmom {mij} {x} {v}"));
        out.lets
            .push((p(&format!("om1_{name}")), format!("cb_apply {o1} {x}")));
        out.lets
            .push((p(&format!("om2_{name}")), format!("cb_apply {o2} {x}")));
        if wants("energy") {
            out.lets
                .push((p(&format!("E{name}")), format!("cb_energy {mij} {x}")));
        }
    };
    quad(&mut out, "v", &v);
    quad(&mut out, "dH", &dh);
    for (k, ok) in [(1, &o1), (2, &o2)] {
        for l in 1..=2 {
            out.lets.push((
                p(&format!("g{k}{l}")),
                format!("cb_a{k}{l} {mij} {rd} {c} {s}"),
            ));
        }
        out.lets
            .push((p(&format!("gd{k}")), format!("cb_co {mij} {dh} {ok}")));
        out.lets
            .push((p(&format!("pw{k}")), format!("cb_apply {ok} {v}")));
    }
    out.lets.push((p("gdd"), format!("cb_co {mij} {dh} {dh}")));
    out.lets.push((p("pd"), format!("cb_apply {dh} {v}")));
    out.lets.push((p("rate"), format!("cb_apply {dh} {v}")));
    out.lets.push((p("E0"), format!("cb_energy {mij} {v}")));
    out.lets.push((
        p("rate_chain"),
        format!("cb_rate_chain {sg} {rd} {c} {s} {hx} {hy} {v}"),
    ));
    // (5) is defined where g(∇h, ∇h) ≠ 0, (29) where its printed denominator is
    out.nonzero
        .push((String::new(), format!("cb_co {mij} {dh} {dh}")));
    outcome(&mut out, "P", &format!("cb_P {mij} {dh} {v}"));
    quad(
        &mut out,
        "p28",
        &format!("cb_p28 {m} {j} {sg} {rd} {c} {s} {hx} {hy} {v}"),
    );
    out.lets.push((
        p("C29"),
        format!("cb_C29 {m} {j} {sg} {rd} {c} {s} {hx} {hy} {v}"),
    ));
    let den = format!(
        "(({hx} ^ 2 + {hy} ^ 2) / {m} + ({sg} * {rd}) ^ 2 * cb_tilt {c} {s} {hx} {hy} ^ 2 / {j})"
    );
    for n in ["C29", "p28_1", "p28_2", "p28_3", "p28_4"] {
        out.nonzero.push((p(n), den.clone()));
    }
    if wants("plastic") {
        let det = format!("cb_det {mij} {rd} {c} {s}");
        outcome(
            &mut out,
            "pl",
            &format!("cb_plastic {mij} {rd} {c} {s} {dh} {v}"),
        );
        for n in ["pl", "dpl"] {
            for k in 1..=4 {
                out.nonzero.push((p(&format!("{n}_{k}")), det.clone()));
            }
        }
        for n in ["om1_pl", "om2_pl", "Epl"] {
            out.nonzero.push((p(n), det.clone()));
        }
    }
    Ok(out)
}

/// Clark–Bloch's `penny.eq12` probe (`coq/Penny.v`): (12) left minus right for r = θ, φ,
/// the coefficients of (24) in the form (11), and (13).
fn penny_eq12(arg: Arg, p: &dyn Fn(&str) -> String) -> Result<Outputs, String> {
    let (m, rd, i, j) = (arg("m")?, arg("R")?, arg("I")?, arg("J")?);
    let (c, s) = (arg("c")?, arg("s")?);
    let (thd, phd, thdd, phdd) = (arg("thd")?, arg("phd")?, arg("thdd")?, arg("phdd")?);
    Ok(Outputs {
        lets: vec![
            (
                p("res_theta"),
                format!("cb_res_theta {m} {rd} {i} {c} {s} {thd} {phd} {thdd}"),
            ),
            (p("res_phi"), format!("cb_res_phi {j} {phdd}")),
            (p("o1_1"), format!("cb_1 (cb_omega1 {rd} {c})")),
            (p("o1_2"), format!("cb_2 (cb_omega1 {rd} {c})")),
            (p("o2_1"), format!("cb_1 (cb_omega2 {rd} {s})")),
            (p("o2_2"), format!("cb_2 (cb_omega2 {rd} {s})")),
            (p("A1_theta"), format!("cb_3 (cb_omega1 {rd} {c})")),
            (p("A1_phi"), format!("cb_4 (cb_omega1 {rd} {c})")),
            (p("A2_theta"), format!("cb_3 (cb_omega2 {rd} {s})")),
            (p("A2_phi"), format!("cb_4 (cb_omega2 {rd} {s})")),
            // (13): ṡ^a = −A^a_α ṙ^α
            (
                p("xdot13"),
                format!(
                    "- (cb_3 (cb_omega1 {rd} {c}) * {thd} + cb_4 (cb_omega1 {rd} {c}) * {phd})"
                ),
            ),
            (
                p("ydot13"),
                format!(
                    "- (cb_3 (cb_omega2 {rd} {s}) * {thd} + cb_4 (cb_omega2 {rd} {s}) * {phd})"
                ),
            ),
        ],
        nonzero: Vec::new(),
        ..Outputs::default()
    })
}

/// Clark–Bloch's `penny.printed` probe (`coq/Penny.v`): (30), (31) and (32)–(33) as printed
/// (`maps`: `w30`, `a31`, `p32`, default all) next to the law's W^k = (ω^k)♯, a^{ij} (19)
/// and π_Δ (21) (column j = π_Δ(e_j)); J does not enter them (taken 1).
fn penny_printed(arg: Arg, word: Word, p: &dyn Fn(&str) -> String) -> Result<Outputs, String> {
    let wants = |m: &str| wants(word, m);
    let (m, rd, i, c, s) = (arg("m")?, arg("R")?, arg("I")?, arg("c")?, arg("s")?);
    let mij = format!("{m} {i} 1");
    let comps = ["cb_1", "cb_2", "cb_3", "cb_4"];
    let mut out = Outputs::default();
    if wants("w30") {
        let printed = [
            format!("cb_W30_1 {m} {rd} {i} {c}"),
            format!("cb_W30_2 {m} {rd} {i} {s}"),
        ];
        let law = [
            format!("cb_sharp {mij} (cb_omega1 {rd} {c})"),
            format!("cb_sharp {mij} (cb_omega2 {rd} {s})"),
        ];
        for (name, ws) in [("W30", &printed), ("W", &law)] {
            for (k, w) in ws.iter().enumerate() {
                for (n, f) in comps.iter().enumerate() {
                    out.lets.push((
                        p(&format!("{name}_{}_{}", k + 1, n + 1)),
                        format!("{f} ({w})"),
                    ));
                }
            }
        }
    }
    if wants("a31") {
        for (name, t) in [
            ("a31_11", format!("cb_a31_11 {m} {rd} {i} {c}")),
            ("a31_12", format!("cb_a31_12 {m} {rd} {i} {c} {s}")),
            ("a31_21", format!("cb_a31_12 {m} {rd} {i} {c} {s}")),
            ("a31_22", format!("cb_a31_22 {m} {rd} {i} {s}")),
        ] {
            out.lets.push((p(name), t));
        }
        for k in 1..=2 {
            for l in 1..=2 {
                out.lets.push((
                    p(&format!("g{k}{l}")),
                    format!("cb_a{k}{l} {mij} {rd} {c} {s}"),
                ));
            }
        }
        out.nonzero
            .push((String::new(), format!("({i} + {m} * {rd} ^ 2)")));
    }
    if wants("p32") {
        let rows = [
            format!("cb_P32_row1 {m} {rd} {i} {c} {s}"),
            format!("cb_P32_row2 {m} {rd} {i} {c} {s}"),
            format!("cb_P32_row3 {m} {rd} {i} {c} {s}"),
            format!("cb_P32_row4 {m} {rd} {i}"),
        ];
        for (r, row) in rows.iter().enumerate() {
            for (j, f) in comps.iter().enumerate() {
                out.lets.push((
                    p(&format!("P32_{}_{}", r + 1, j + 1)),
                    format!("{f} ({row})"),
                ));
            }
        }
        let units = [
            "(1, 0, 0, 0)",
            "(0, 1, 0, 0)",
            "(0, 0, 1, 0)",
            "(0, 0, 0, 1)",
        ];
        for (j, e) in units.iter().enumerate() {
            for (r, f) in comps.iter().enumerate() {
                out.lets.push((
                    p(&format!("Pi_{}_{}", r + 1, j + 1)),
                    format!("{f} (cb_project {mij} {rd} {c} {s} {e})"),
                ));
            }
        }
        out.nonzero
            .push((String::new(), format!("cb_det {mij} {rd} {c} {s}")));
    }
    Ok(out)
}

/// Seghete–Murphey's billiard break (Sect. VII-A, `coq/Propagative.v`) at the rational
/// geometry `t` = tan(θ/4): radii `ra rb rc` (default 1), masses `ma mb mc` (default r³);
/// `billiard.break` gives the three sides of (31), `billiard.overlap` the margin
/// cos θ_min − cos θ. The law is defined for positive radii and masses and θ ∈ [0, π]
/// (cos θ/2, sin θ/2 ≥ 0), and `billiard.break` where a and b do not overlap: premises,
/// as the probe answers an error elsewhere.
fn billiard(
    probe: &str,
    arg: Arg,
    has: Has,
    p: &dyn Fn(&str) -> String,
) -> Result<Outputs, String> {
    if !has("t") || has("half") || has("theta_over_pi") {
        return Err("the billiard in Coq takes the angle as t = tan(theta/4)".into());
    }
    if has("check_overlap") {
        return Err("the billiard's outcome (xi2) has no Coq law yet".into());
    }
    let t = arg("t")?;
    let radius = |n: &str| -> Result<String, String> {
        if has(n) {
            arg(n)
        } else {
            Ok("1".into())
        }
    };
    let (ra, rb, rc) = (radius("ra")?, radius("rb")?, radius("rc")?);
    let mut out = Outputs::default();
    let mut positive = vec![ra.clone(), rb.clone(), rc.clone()];
    if probe == "billiard.overlap" {
        out.lets
            .push((p("overlap"), format!("sm_bil_overlap {ra} {rb} {rc} {t}")));
    } else {
        let mass = |n: &str, r: &str| -> Result<String, String> {
            if has(n) {
                arg(n)
            } else {
                Ok(format!("({r} ^ 3)"))
            }
        };
        let (ma, mb, mc) = (mass("ma", &ra)?, mass("mb", &rb)?, mass("mc", &rc)?);
        out.lets.push((
            p("inner"),
            format!("sm_bil_inner {ma} {mb} {mc} {ra} {rb} {rc} {t}"),
        ));
        out.lets.push((
            p("middle"),
            format!("sm_bil_middle {mc} {ra} {rb} {rc} {t}"),
        ));
        out.lets
            .push((p("cos_over_mc"), format!("sm_bil_cos {t} / {mc}")));
        positive.extend([ma, mb, mc]);
        // an overlapping geometry (a and b intersecting) is an error of the probe
        out.premises.push((
            String::new(),
            format!("0 <= sm_bil_overlap {ra} {rb} {rc} {t}"),
        ));
    }
    for x in positive {
        out.premises.push((String::new(), format!("0 < {x}")));
    }
    out.premises
        .push((String::new(), format!("0 <= sm_bil_ch {t}")));
    out.premises
        .push((String::new(), format!("0 <= sm_bil_sh {t}")));
    Ok(out)
}

/// Pasquero (2020), Sect. 3.5 and 4.1: the procedure on three balls (`pq3_step`, rule
/// (7) with ε₁ = ε₂ = `eps`), run for `max_iter` steps: `v{w}_{i}` the velocity after w
/// steps (it exists where the run has not stopped before, `ik_ex{w-1}` = 0), `exit` whether
/// the last velocity is an exit velocity, `steps` the steps taken, `multiple` the multiple
/// impacts among them, `vf{i}` the final velocity. An exit velocity is a fixed point of
/// `pq3_step`, so the chain of `max_iter` steps carries it to the end unchanged.
fn cradle_run(
    arg: Arg,
    has: Has,
    word: Word,
    p: &dyn Fn(&str) -> String,
) -> Result<Outputs, String> {
    if has("sigma") {
        return Err("the cradle's stop test `sigma` has no Coq law yet".into());
    }
    let n: usize = match word("max_iter") {
        None => return Err("a cradle run without `max_iter` (the tool's limit of 10000 steps) has no Coq statement".into()),
        Some(w) => w
            .trim()
            .parse()
            .map_err(|_| format!("max_iter: expected a number of steps, got {w}"))?,
    };
    if !(1..=8).contains(&n) {
        return Err(format!(
            "a cradle run of {n} steps: the Coq statement covers 1 to 8"
        ));
    }
    let mass = |m: &str| if has(m) { arg(m) } else { Ok("1".into()) };
    let (m1, m2, m3) = (mass("m1")?, mass("m2")?, mass("m3")?);
    let e = arg("eps")?;
    let mut at = vec![arg("v1")?, arg("v2")?, arg("v3")?];
    let mut out = Outputs {
        chain: true,
        ..Outputs::default()
    };
    let (mut steps, mut multiple) = (Vec::new(), Vec::new());
    for w in 0..=n {
        let v = at.join(" ");
        let ex = p(&format!("ik_ex{w}"));
        out.lets.push((ex.clone(), format!("pq3_exit {v}")));
        if w == n {
            out.lets.push((p("exit"), ex));
            for (i, x) in at.iter().enumerate() {
                out.lets.push((p(&format!("vf{}", i + 1)), x.clone()));
            }
            break;
        }
        steps.push(format!("(1 - {ex})"));
        multiple.push(format!("pq3_multiple {v}"));
        let next: Vec<String> = (1..=3).map(|i| p(&format!("v{}_{i}", w + 1))).collect();
        for (i, x) in next.iter().enumerate() {
            out.lets.push((
                x.clone(),
                format!("sm_c{} (pq3_step {m1} {m2} {m3} {e} {e} {v})", i + 1),
            ));
            out.defined.push((x.clone(), ex.clone()));
        }
        at = next;
    }
    out.lets.push((p("steps"), steps.join(" + ")));
    out.lets.push((p("multiple"), multiple.join(" + ")));
    for m in ["m1", "m2", "m3"].iter().filter(|m| has(m)) {
        out.premises
            .push((String::new(), format!("0 < {}", arg(m)?)));
    }
    Ok(out)
}

/// The diagonal masses `(m1, m2, m3)` (1 where not given) and their positivity premises.
fn masses3(arg: Arg, has: Has, out: &mut Outputs) -> Result<String, String> {
    let mut ms = Vec::new();
    for m in ["m1", "m2", "m3"] {
        if has(m) {
            out.premises
                .push((String::new(), format!("0 < {}", arg(m)?)));
            ms.push(arg(m)?);
        } else {
            ms.push("1".into());
        }
    }
    Ok(format!("({})", ms.join(", ")))
}

/// Pasquero (2020), rule (4) in R³ (`pq_single`, `coq/Cradle.v`): one constraint of
/// gradient `n1 n2 n3`, diagonal masses, COR `eps`, velocity `v1 v2 v3`. Outputs:
/// `impacts`, `rate0` = n·v, `rate1` = n·w, `E0`, `E1` (½⟨v, v⟩), `w{i}` = v + I,
/// `d{i}` = M I.
fn char_single(arg: Arg, has: Has, p: &dyn Fn(&str) -> String) -> Result<Outputs, String> {
    let mut out = Outputs::default();
    let m = masses3(arg, has, &mut out)?;
    let triple = |x: &str| -> Result<String, String> {
        Ok(format!(
            "({}, {}, {})",
            arg(&format!("{x}1"))?,
            arg(&format!("{x}2"))?,
            arg(&format!("{x}3"))?
        ))
    };
    let (n, v) = (triple("n")?, triple("v")?);
    let e = arg("eps")?;
    let law = format!("pq_single {m} {e} {n} {v}");
    let w: Vec<String> = (1..=3).map(|i| p(&format!("w{i}"))).collect();
    let wt = format!("({})", w.join(", "));
    out.lets
        .push((p("impacts"), format!("pq_incoming {n} {v}")));
    out.lets.push((p("rate0"), format!("pq_rate {n} {v}")));
    for (i, x) in w.iter().enumerate() {
        out.lets.push((x.clone(), format!("sm_c{} ({law})", i + 1)));
    }
    for (i, x) in w.iter().enumerate() {
        let c = |t: &str| format!("sm_c{} {t}", i + 1);
        out.lets.push((
            p(&format!("d{}", i + 1)),
            format!("{} * ({x} - {})", c(&m), c(&v)),
        ));
    }
    out.lets.push((p("rate1"), format!("pq_rate {n} {wt}")));
    out.lets.push((p("E0"), format!("pq_energy {m} {v}")));
    out.lets.push((p("E1"), format!("pq_energy {m} {wt}")));
    out.nonzero
        .push((String::new(), format!("sm_inner {m} {n} {n}")));
    Ok(out)
}

/// Pasquero (2020), one step of the procedure of Sect. 3.5 in R³ with two constraints
/// (`pq_two`: rule (7)), diagonal masses: gradients `n1_j`, `n2_j` (missing components
/// 0), CORs `e1 e2`, velocity `v1 v2 v3`. Outputs as impactkit's `char.step`:
/// `impacting`, `goes_on`, `multi`, `exit`, `rest` (0: no stop test), `rate{i}`,
/// `next_rate{i}`, `next_impacting`, `u{j}`, `next_v{j}`.
fn char_step(
    arg: Arg,
    has: Has,
    word: Word,
    p: &dyn Fn(&str) -> String,
) -> Result<Outputs, String> {
    if has("sigma") || has("v4") || has("m_1_1") || (1..=3).any(|j| has(&format!("n3_{j}"))) {
        return Err("Pasquero's step in Coq has three velocities, a diagonal mass matrix, two constraints and no stop test".into());
    }
    let _ = word;
    let mut out = Outputs::default();
    let m = masses3(arg, has, &mut out)?;
    let comp = |x: &str| if has(x) { arg(x) } else { Ok("0".into()) };
    let normal = |i: usize| -> Result<String, String> {
        Ok(format!(
            "({}, {}, {})",
            comp(&format!("n{i}_1"))?,
            comp(&format!("n{i}_2"))?,
            comp(&format!("n{i}_3"))?
        ))
    };
    let (n1, n2) = (normal(1)?, normal(2)?);
    let v = format!("({}, {}, {})", arg("v1")?, arg("v2")?, arg("v3")?);
    let law = format!("pq_two {m} {} {} {n1} {n2} {v}", arg("e1")?, arg("e2")?);
    let (i1, i2) = (
        format!("pq_incoming {n1} {v}"),
        format!("pq_incoming {n2} {v}"),
    );
    out.lets.push((p("impacting"), format!("{i1} + {i2}")));
    out.lets
        .push((p("exit"), format!("(1 - {i1}) * (1 - {i2})")));
    out.lets
        .push((p("goes_on"), format!("1 - (1 - {i1}) * (1 - {i2})")));
    out.lets.push((p("multi"), format!("{i1} * {i2}")));
    out.lets.push((p("rest"), "0".into()));
    let next: Vec<String> = (1..=3).map(|j| p(&format!("next_v{j}"))).collect();
    for (j, x) in next.iter().enumerate() {
        out.lets
            .push((p(&format!("u{}", j + 1)), arg(&format!("v{}", j + 1))?));
        out.lets.push((x.clone(), format!("sm_c{} ({law})", j + 1)));
    }
    let w = format!("({})", next.join(", "));
    for (i, n) in [&n1, &n2].iter().enumerate() {
        out.lets
            .push((p(&format!("rate{}", i + 1)), format!("pq_rate {n} {v}")));
        out.lets.push((
            p(&format!("next_rate{}", i + 1)),
            format!("pq_rate {n} {w}"),
        ));
    }
    out.lets.push((
        p("next_impacting"),
        format!("pq_incoming {n1} {w} + pq_incoming {n2} {w}"),
    ));
    for n in [&n1, &n2] {
        out.nonzero
            .push((String::new(), format!("sm_inner {m} {n} {n}")));
    }
    // β's divisor, ‖V⊥1 + V⊥2‖², where both constraints are incoming
    let sum = (1..=3)
        .map(|j| format!("sm_c{j} (pq_perp {m} {n1} {v}) + sm_c{j} (pq_perp {m} {n2} {v})"))
        .collect::<Vec<_>>()
        .join(", ");
    out.premises.push((
        String::new(),
        format!(
            "(0 < pq_rate {n1} {v} -> 0 < pq_rate {n2} {v} -> pq_kin {m} ({sum}) ({sum}) <> 0)"
        ),
    ));
    Ok(out)
}
