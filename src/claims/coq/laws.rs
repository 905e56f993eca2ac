//! The probes whose laws are written in Coq (`coq/*.v`, by hand from the papers), and how
//! a probe's outputs read as applications of those laws.

use super::term;
use num_rational::BigRational;

/// The Coq library files, embedded: written into the export folder's `lib/` and compiled
/// there, so that the folder checks on its own.
pub(crate) const LIBRARY: [(&str, &str); 2] = [
    ("Tactics.v", include_str!("../../../coq/Tactics.v")),
    ("Corner.v", include_str!("../../../coq/Corner.v")),
];

/// The definitions a proof unfolds (every law definition of the library), each before
/// those it is written with (`unfold` takes them in this order).
pub(crate) const UNFOLD: &str = "tr_nid_xe_in_xy, xy_of_xe, tr_nid_xe_in, tr_id, tr_nid, \
     tr_id_in, tr_nid_in, zone_of, xi_of, eta_of, zone_code, goes_on_code, multi_code, \
     beta_of, v1_perp, v2_perp";

/// An input of a probe as a Coq term: the claim's mapping, else the variable of that name.
pub(crate) type Arg<'a> = &'a dyn Fn(&str) -> Result<String, String>;

/// The outputs of `probe` as Coq terms, in an order where each uses only earlier ones
/// (named with `prefix`): `(output name, term)`. `zone` is a forced zone's code (the
/// input `force_zone`), if any.
pub(crate) fn outputs(
    probe: &str,
    arg: Arg,
    zone: Option<&BigRational>,
    prefix: &str,
) -> Result<Vec<(String, String)>, String> {
    let p = |n: &str| format!("{prefix}{n}");
    match probe {
        "corner.tr_id_xy" | "corner.tr_nid_xy" | "corner.tr_nid_xi_eta" => {
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
            Ok(vec![
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
            ])
        }
        "corner.orthogonal" => {
            let (k, x, y) = (arg("k")?, arg("x")?, arg("y")?);
            Ok(vec![
                (p("v1x"), format!("fst (v1_perp {k} {x} {y})")),
                (p("v1y"), format!("snd (v1_perp {k} {x} {y})")),
                (p("v2x"), format!("fst (v2_perp {k} {x} {y})")),
                (p("v2y"), format!("snd (v2_perp {k} {x} {y})")),
                (p("v12x"), x.clone()),
                (p("v12y"), y.clone()),
                (p("beta"), format!("beta_of {k} {x} {y}")),
            ])
        }
        other => Err(format!("no Coq law for the probe {other} yet")),
    }
}
