//! What an audit records per sample, and how two runs are compared: the zone sequences
//! step by step, the terminations, and a rigorous enclosure of the distance between the
//! audited final state and the true one.

use crate::arith::Num;
use rug::float::Round;
use rug::Float;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Rigorous bounds `lo <= x <= hi` (outward-rounded to `f64`). In JSON the documented
/// enclosure shape, `{"lo": "…", "hi": "…"}`: 19-digit decimals rounded outward from the
/// `f64` bounds, so each decimal is itself a bound; read back to the nearest `f64`, which
/// is the bound written (19 digits lie within half a unit in the last place of an `f64`),
/// so a merged audit equals the single run. A bare number, as records before the shapes
/// wrote it, is read as it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub lo: f64,
    pub hi: f64,
}

impl Serialize for Bounds {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        Num::Enclosure {
            lo: Float::with_val(53, self.lo),
            hi: Float::with_val(53, self.hi),
        }
        .serialize(s)
    }
}

/// A number of a record as read: a decimal string, or a bare JSON number.
#[derive(Deserialize)]
#[serde(untagged)]
enum Read {
    Text(String),
    Number(f64),
}

impl Read {
    /// The value as `f64`, a decimal string rounded by `round`.
    fn f64(self, round: Round) -> Result<f64, String> {
        match self {
            Read::Number(x) => Ok(x),
            Read::Text(s) => Float::parse(&s)
                .map(|p| Float::with_val_round(53, p, round).0.to_f64_round(round))
                .map_err(|e| format!("{s:?}: {e}")),
        }
    }
}

impl<'de> Deserialize<'de> for Bounds {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Bounds, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            lo: Read,
            hi: Read,
        }
        let r = Raw::deserialize(d)?;
        Ok(Bounds {
            lo: r.lo.f64(Round::Nearest).map_err(serde::de::Error::custom)?,
            hi: r.hi.f64(Round::Nearest).map_err(serde::de::Error::custom)?,
        })
    }
}

/// An `f64` statistic in the documented shape `{"approx": "…"}` (shortest decimal that
/// reads back as the same binary value); a bare number is read too.
pub mod approx {
    use super::{Float, Num, Read, Round};
    use serde::{Deserialize, Serialize};

    pub fn serialize<S: serde::Serializer>(x: &f64, s: S) -> Result<S::Ok, S::Error> {
        Num::Approx(Float::with_val(53, *x)).serialize(s)
    }

    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Shaped { approx: Read },
            Bare(f64),
        }
        match Raw::deserialize(d)? {
            Raw::Bare(x) => Ok(x),
            Raw::Shaped { approx } => approx.f64(Round::Nearest).map_err(serde::de::Error::custom),
        }
    }
}

/// A value of a run's final state in the documented shapes: `{"exact": "…"}`,
/// `{"approx": "…"}` or `{"lo": "…", "hi": "…"}` (what the audited arithmetic computed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    Exact {
        exact: String,
    },
    Approx {
        approx: String,
    },
    Enclosure {
        lo: String,
        hi: String,
    },
    /// A bare string: how records before the shapes were written (read only).
    Bare(String),
}

impl Value {
    /// The shape of a report number.
    pub fn of(x: &Num) -> Value {
        let mut f = x.json_fields().into_iter();
        match (f.next(), f.next()) {
            (Some(("exact", e)), _) => Value::Exact { exact: e },
            (Some(("lo", lo)), Some((_, hi))) => Value::Enclosure { lo, hi },
            (Some((_, a)), _) => Value::Approx { approx: a },
            (None, _) => Value::Bare(String::new()),
        }
    }

    /// The value as a number (the midpoint of an enclosure; `None` for an exact form
    /// that is not a decimal).
    pub fn to_f64(&self) -> Option<f64> {
        match self {
            Value::Exact { exact: s } | Value::Approx { approx: s } | Value::Bare(s) => {
                s.parse().ok()
            }
            Value::Enclosure { lo, hi } => {
                Some((lo.parse::<f64>().ok()? + hi.parse::<f64>().ok()?) / 2.0)
            }
        }
    }
}

/// The audited run of one sample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Audited {
    /// Rule applications.
    pub steps: usize,
    pub termination: String,
    /// The final state, each component in the documented shape of what the audited
    /// arithmetic computed (`{"approx": "…"}` for `f64`: the shortest decimal that reads
    /// back as the same binary value).
    #[serde(rename = "final")]
    pub final_state: Vec<Value>,
}

/// The certified reference of one sample.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reference {
    /// The arithmetic that decided every branch (`interval`, `mpi:424`, `exact`, …).
    pub certified_by: String,
    pub steps: usize,
    pub termination: String,
    /// Rigorous bounds of the true final state.
    #[serde(rename = "final")]
    pub final_state: Vec<Bounds>,
}

/// Where two zone sequences first differ.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Divergence {
    /// The index n of the velocity v_n whose zone differs (0: the entrance velocity).
    pub step: usize,
    /// The audited arithmetic's zone there (`end` if its run had stopped).
    pub audited: String,
    /// The reference's zone there (`end` if its run had stopped).
    pub reference: String,
}

/// The audited run against the reference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    /// The same zone at every step, and the same number of steps.
    pub same_zones: bool,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub divergence: Option<Divergence>,
    pub same_termination: bool,
    /// ‖audited − true‖₂ of the final states, enclosed.
    pub distance: Bounds,
    /// ‖audited − true‖₂ / ‖true‖₂, enclosed (absent when ‖true‖ may be 0).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub relative_distance: Option<Bounds>,
}

/// One sample of an audit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The point's index in the domain (shards take index ≡ i mod n).
    pub index: u64,
    /// The point's coordinates on the varying axes, as `f64` (for figures).
    pub coords: Vec<f64>,
    /// The inputs, as input-language expressions.
    pub inputs: BTreeMap<String, String>,
    pub audited: Audited,
    /// The certified reference; absent when none was asked or none decided.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reference: Option<Reference>,
    /// Why no arithmetic of the ladder decided the reference (counted apart).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub undecided: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub comparison: Option<Comparison>,
    /// One impactkit command that reproduces the audited run.
    pub reproduce: String,
}

/// The first step where `audited` and `reference` zone sequences differ (a sequence that
/// ended reads `end`), or `None` if they are equal.
pub fn divergence<A: AsRef<str>, B: AsRef<str>>(
    audited: &[A],
    reference: &[B],
) -> Option<Divergence> {
    let n = audited.len().max(reference.len());
    (0..n).find_map(|i| {
        let a = audited.get(i).map_or("end", |z| z.as_ref());
        let r = reference.get(i).map_or("end", |z| z.as_ref());
        (a != r).then(|| Divergence {
            step: i,
            audited: a.to_string(),
            reference: r.to_string(),
        })
    })
}

/// A certified reference run, as a law reports it.
pub struct ReferenceRun<'a> {
    /// The arithmetic that decided every branch.
    pub certified_by: String,
    /// The zone (branch) of every step, by name.
    pub zones: &'a [String],
    pub steps: usize,
    pub termination: &'a str,
    /// The final state (exact values or enclosures).
    pub final_state: &'a [Num],
}

/// Bounds that say nothing (a value that could not be bounded).
const UNBOUNDED: Bounds = Bounds {
    lo: -f64::MAX,
    hi: f64::MAX,
};

/// Compares the audited run (its zones by name and its final state) with the certified
/// reference `r`, and stores both in `rec`.
pub fn compare(rec: &mut Record, audited_zones: &[&str], audited_final: &[Num], r: ReferenceRun) {
    let bounds: Option<Vec<_>> = r.final_state.iter().map(num_bounds).collect();
    let divergence = divergence(audited_zones, r.zones);
    let dist = bounds.and_then(|b| distances(audited_final, &b));
    rec.comparison = Some(Comparison {
        same_zones: divergence.is_none(),
        divergence,
        same_termination: rec.audited.termination == r.termination,
        distance: dist.map_or(
            Bounds {
                lo: 0.0,
                hi: f64::MAX,
            },
            |d| d.0,
        ),
        relative_distance: dist.and_then(|d| d.1),
    });
    rec.reference = Some(Reference {
        certified_by: r.certified_by,
        steps: r.steps,
        termination: r.termination.to_string(),
        final_state: r
            .final_state
            .iter()
            .map(|x| bounds_f64(x).unwrap_or(UNBOUNDED))
            .collect(),
    });
}

/// Working precision of the distance enclosures.
const PREC: u32 = 256;

/// Rigorous bounds of a report number at `PREC` bits (`None`: not a number we can bound).
pub fn num_bounds(x: &Num) -> Option<(Float, Float)> {
    use crate::arith::{ExactValue, Scalar};
    match x {
        Num::Approx(f) => Some((Float::with_val(PREC, f), Float::with_val(PREC, f))),
        Num::Enclosure { lo, hi } => Some((
            Float::with_val_round(PREC, lo, Round::Down).0,
            Float::with_val_round(PREC, hi, Round::Up).0,
        )),
        Num::Exact {
            value: ExactValue::Rational(q),
            ..
        } => Some((
            Float::with_val_round(PREC, q, Round::Down).0,
            Float::with_val_round(PREC, q, Round::Up).0,
        )),
        Num::Exact { expr, .. } => {
            // a Q(√d) value: its expression, enclosed by MPFR intervals
            let v = crate::lang::eval_str::<crate::arith::MpInterval>(expr, &PREC).ok()?;
            match v.num() {
                Num::Enclosure { lo, hi } => Some((lo, hi)),
                _ => None,
            }
        }
    }
}

fn down(x: &Float) -> f64 {
    x.to_f64_round(Round::Down)
}

fn up(x: &Float) -> f64 {
    x.to_f64_round(Round::Up)
}

/// The bounds of a report number as `f64` (outward).
pub fn bounds_f64(x: &Num) -> Option<Bounds> {
    num_bounds(x).map(|(lo, hi)| Bounds {
        lo: down(&lo),
        hi: up(&hi),
    })
}

/// Enclosures of ‖a − r‖₂ and ‖a − r‖₂/‖r‖₂ for an audited state `a` (exact values of the
/// audited arithmetic) and the true state r ∈ Π[loᵢ, hiᵢ]; `None` if a value is not finite.
pub fn distances(a: &[Num], r: &[(Float, Float)]) -> Option<(Bounds, Option<Bounds>)> {
    // interval of |a_i - r_i|², and of r_i², per component, with directed rounding
    let mut d2 = (Float::with_val(PREC, 0), Float::with_val(PREC, 0));
    let mut r2 = (Float::with_val(PREC, 0), Float::with_val(PREC, 0));
    for (ai, (lo, hi)) in a.iter().zip(r) {
        let (alo, ahi) = num_bounds(ai)?;
        if !(alo.is_finite() && ahi.is_finite() && lo.is_finite() && hi.is_finite()) {
            return None;
        }
        // a - r ∈ [alo - hi, ahi - lo]
        let dlo = Float::with_val_round(PREC, &alo - hi, Round::Down).0;
        let dhi = Float::with_val_round(PREC, &ahi - lo, Round::Up).0;
        let (sq_lo, sq_hi) = square_bounds(&dlo, &dhi);
        d2.0 = Float::with_val_round(PREC, &d2.0 + &sq_lo, Round::Down).0;
        d2.1 = Float::with_val_round(PREC, &d2.1 + &sq_hi, Round::Up).0;
        let (rs_lo, rs_hi) = square_bounds(lo, hi);
        r2.0 = Float::with_val_round(PREC, &r2.0 + &rs_lo, Round::Down).0;
        r2.1 = Float::with_val_round(PREC, &r2.1 + &rs_hi, Round::Up).0;
    }
    let sqrt = |x: &Float, r: Round| Float::with_val_round(PREC, x.sqrt_ref(), r).0;
    let (dlo, dhi) = (sqrt(&d2.0, Round::Down), sqrt(&d2.1, Round::Up));
    let abs = Bounds {
        lo: down(&dlo),
        hi: up(&dhi),
    };
    let rel = (r2.0 > 0).then(|| {
        let (nlo, nhi) = (sqrt(&r2.0, Round::Down), sqrt(&r2.1, Round::Up));
        Bounds {
            lo: down(&Float::with_val_round(PREC, &dlo / &nhi, Round::Down).0),
            hi: up(&Float::with_val_round(PREC, &dhi / &nlo, Round::Up).0),
        }
    });
    Some((abs, rel))
}

/// Bounds of x² for x ∈ [lo, hi].
fn square_bounds(lo: &Float, hi: &Float) -> (Float, Float) {
    let sq = |x: &Float, r: Round| Float::with_val_round(PREC, x.square_ref(), r).0;
    if *lo >= 0 {
        (sq(lo, Round::Down), sq(hi, Round::Up))
    } else if *hi <= 0 {
        (sq(hi, Round::Down), sq(lo, Round::Up))
    } else {
        let a = sq(lo, Round::Up);
        let b = sq(hi, Round::Up);
        (Float::with_val(PREC, 0), if a > b { a } else { b })
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn bounds_round_trip_through_their_decimal_shape() {
        for b in [
            Bounds {
                lo: 2.0014830212433605e-16,
                hi: 2.0014830212433607e-16,
            },
            Bounds { lo: -1.0, hi: 0.1 },
            Bounds {
                lo: -f64::MAX,
                hi: f64::MAX,
            },
        ] {
            let text = serde_json::to_string(&b).unwrap();
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert!(v["lo"].is_string() && v["hi"].is_string(), "{text}");
            // each decimal is itself a bound
            let (lo, hi) = (v["lo"].as_str().unwrap(), v["hi"].as_str().unwrap());
            let (lo, hi) = (Float::parse(lo).unwrap(), Float::parse(hi).unwrap());
            assert!(Float::with_val(4096, lo) <= b.lo && Float::with_val(4096, hi) >= b.hi);
            assert_eq!(serde_json::from_str::<Bounds>(&text).unwrap(), b);
        }
        // records written before the shapes
        let old: Bounds = serde_json::from_str(r#"{"lo":0.5,"hi":0.75}"#).unwrap();
        assert_eq!(old, Bounds { lo: 0.5, hi: 0.75 });
    }

    use super::*;

    #[test]
    fn divergence_is_the_first_differing_step() {
        assert_eq!(divergence(&["Z12", "Z1", "Z0"], &["Z12", "Z1", "Z0"]), None);
        let d = divergence(&["Z12", "Z1", "Z2", "Z0"], &["Z12", "Z1", "Z0"]).unwrap();
        assert_eq!(
            (d.step, d.audited.as_str(), d.reference.as_str()),
            (2, "Z2", "Z0")
        );
        let d = divergence(&["Z1"], &["Z1", "Z0"]).unwrap();
        assert_eq!((d.step, d.audited.as_str()), (1, "end"));
    }

    #[test]
    fn distances_enclose_the_true_distance() {
        let a = [
            Num::Approx(Float::with_val(53, 3.0)),
            Num::Approx(Float::with_val(53, 4.0)),
        ];
        let r = [
            (Float::with_val(PREC, 0), Float::with_val(PREC, 0)),
            (Float::with_val(PREC, 0), Float::with_val(PREC, 0)),
        ];
        let (abs, rel) = distances(&a, &r).unwrap();
        assert!(abs.lo <= 5.0 && 5.0 <= abs.hi && abs.hi - abs.lo < 1e-15);
        assert!(rel.is_none());
        // r = (3, 4 ± 1e-10): the distance lies in [0, 1e-10]
        let r = [
            (Float::with_val(PREC, 3), Float::with_val(PREC, 3)),
            (
                Float::with_val(PREC, 4.0 - 1e-10),
                Float::with_val(PREC, 4.0 + 1e-10),
            ),
        ];
        let (abs, rel) = distances(&a, &r).unwrap();
        assert_eq!(abs.lo, 0.0);
        assert!(abs.hi >= 1e-10 && abs.hi < 1.1e-10);
        assert!(rel.unwrap().hi < 3e-11);
    }
}
