//! System files: any impact scenario at its contact configuration, as TOML (or the same
//! object inline in a JSON record of `impactkit regress`).
//!
//! ```toml
//! name = "3-ball cradle, masses 1, 1, 1"
//! kind = "cradle"                    # informational
//! coordinates = ["x1", "x2", "x3"]   # optional names of the generalized coordinates
//! masses = ["1", "1", "1"]           # diagonal mass matrix, or
//! # mass_matrix = [["2", "1"], ["1", "2"]]
//! velocity = ["1", "0", "0"]         # the pre-impact velocity q̇⁻
//! restitution = "1"                  # default coefficient of every contact
//!
//! [[contact]]
//! name = "12"
//! normal = ["-1", "1", "0"]          # ∇φ of the gap function φ ≥ 0: γ = ∇φ·q̇ < 0 approaches
//! # touching = true                  # default
//! # restitution = "9/10"             # this contact's coefficient
//! ```
//!
//! Numbers are expressions of the input language (strings), integers, or decimals
//! (a TOML float `0.9` is read as the decimal it prints as, 9/10). The coefficient is
//! Newton's and Poisson's e per contact; Pasquero's rule uses it as the COR of each
//! constraint; the energetic R of Seghete–Murphey (16) needs one value for all contacts.

use crate::arith::{Scalar, Sign};
use crate::input::{value, InputError};
use crate::law::decide;
use crate::law::propagative::Contacts;
use crate::linalg::{SymMatrix, Vector};
use serde::{Deserialize, Serialize};

/// Largest number of generalized coordinates of a system file.
pub const MAX_COORDINATES: usize = 64;
/// Largest number of contacts of a system file.
pub const MAX_CONTACTS: usize = 32;

/// A number as written: an expression, an integer or a decimal.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum Number {
    Text(String),
    Int(i64),
    Float(f64),
}

impl Number {
    /// The expression of the input language.
    pub fn expr(&self) -> String {
        match self {
            Number::Text(s) => s.clone(),
            Number::Int(i) => i.to_string(),
            Number::Float(f) => format!("{f}"),
        }
    }
}

impl From<&str> for Number {
    fn from(s: &str) -> Self {
        Number::Text(s.to_string())
    }
}

/// One contact of a system file.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ContactSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// ∇φ at the contact configuration.
    pub normal: Vec<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub touching: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restitution: Option<Number>,
    /// Poisson's coefficient of this contact, when it differs from `restitution`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poisson: Option<Number>,
}

/// A system file as written, before any arithmetic.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
///
/// # Example
///
/// ```
/// use impactkit::arith::Rational;
/// use impactkit::system::file::SystemFile;
/// let text = r#"
///     masses = ["1", "1", "1"]
///     velocity = ["1", "0", "0"]
///     restitution = "1"
///     [[contact]]
///     normal = ["-1", "1", "0"]
///     [[contact]]
///     normal = ["0", "-1", "1"]
/// "#;
/// let file = SystemFile::from_toml(text, "cradle.toml").unwrap();
/// let sys = file.build::<Rational>("cradle.toml", &()).unwrap();
/// assert_eq!(sys.normals.len(), 2);
/// assert_eq!(SystemFile::from_toml(&file.to_toml(), "again").unwrap(), file);
/// let bad = SystemFile::from_toml("velocity = [\"1\"]\nvarz = 1", "bad.toml").unwrap_err();
/// assert!(bad.to_string().contains("varz"), "{bad}");
/// ```
pub struct SystemFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coordinates: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub masses: Option<Vec<Number>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass_matrix: Option<Vec<Vec<Number>>>,
    pub velocity: Vec<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restitution: Option<Number>,
    /// The energetic R of Seghete–Murphey (16), one for every contact (default: the
    /// contacts' common coefficient).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energetic: Option<Number>,
    #[serde(default)]
    pub contact: Vec<ContactSpec>,
}

/// A system at its contact configuration in backend `S`: the touching contacts only.
#[derive(Clone, Debug)]
pub struct System<S> {
    pub name: String,
    pub coordinates: Vec<String>,
    /// Names of the touching contacts (given, or their 1-based index).
    pub contacts: Vec<String>,
    /// Names of contacts listed as not touching (no law acts on them).
    pub ignored: Vec<String>,
    pub mass: SymMatrix<S>,
    /// ∇φ_i of the touching contacts.
    pub normals: Vec<Vector<S>>,
    /// e_i of the touching contacts (Newton's law, Pasquero's CORs).
    pub restitution: Vec<S>,
    /// Poisson's e_i of the touching contacts.
    pub poisson: Vec<S>,
    /// The energetic R of Seghete–Murphey (16), when given.
    pub energetic: Option<S>,
    /// q̇⁻.
    pub velocity: Vector<S>,
}

/// The mass matrix of a file: `masses` (the diagonal, each positive) or `mass_matrix`
/// (symmetric), exactly one of them, for `n` coordinates; with every entry read (for
/// the caller's compatibility check). Errors name `source` and the key.
pub(crate) fn mass_matrix<S: Scalar>(
    masses: Option<&[Number]>,
    matrix: Option<&[Vec<Number>]>,
    n: usize,
    source: &str,
    ctx: &S::Ctx,
) -> Result<(SymMatrix<S>, Vec<S>), InputError> {
    let err = |key: &str, reason: String| InputError::new(format!("{source}: {key}"), reason);
    let num = |x: &Number, key: &str| -> Result<S, InputError> {
        value::<S>(&x.expr(), &format!("{source}: {key}"), ctx)
    };
    let nums = |xs: &[Number], key: &str| -> Result<Vec<S>, InputError> {
        xs.iter().map(|x| num(x, key)).collect()
    };
    let mut all: Vec<S> = Vec::new();
    let mass = match (masses, matrix) {
        (Some(m), None) => {
            if m.len() != n {
                return Err(err(
                    "masses",
                    format!("{} masses for {n} coordinates", m.len()),
                ));
            }
            let d = nums(m, "masses")?;
            for x in &d {
                if decide(x, "a mass").map_err(|e| err("masses", e.to_string()))? != Sign::Positive
                {
                    return Err(err("masses", "masses must be positive".into()));
                }
            }
            all.extend(d.iter().cloned());
            SymMatrix::diagonal(&d)
        }
        (None, Some(rows)) => {
            if rows.len() != n || rows.iter().any(|r| r.len() != n) {
                return Err(err("mass_matrix", format!("must be {n}×{n}")));
            }
            let full: Vec<Vec<S>> = rows
                .iter()
                .map(|r| nums(r, "mass_matrix"))
                .collect::<Result<_, _>>()?;
            let pairs = (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j)));
            for (i, j) in pairs {
                let d = full[i][j].sub_r(&full[j][i]);
                if decide(&d, "M_ij − M_ji").map_err(|e| err("mass_matrix", e.to_string()))?
                    != Sign::Zero
                {
                    return Err(err("mass_matrix", "is not symmetric".into()));
                }
            }
            all.extend(full.iter().flatten().cloned());
            let upper = (0..n).map(|i| full[i][i..].to_vec()).collect();
            SymMatrix::from_upper(upper).map_err(|e| err("mass_matrix", e.to_string()))?
        }
        _ => {
            return Err(err(
                "masses",
                "give exactly one of `masses` and `mass_matrix`".into(),
            ))
        }
    };
    Ok((mass, all))
}

impl SystemFile {
    /// Reads TOML; `source` names the file in errors.
    pub fn from_toml(text: &str, source: &str) -> Result<Self, InputError> {
        toml::from_str(text).map_err(|e| InputError::new(source, e.message()))
    }

    /// The file as TOML, with a comment line on top.
    pub fn to_toml(&self) -> String {
        let body = toml::to_string(self).unwrap_or_else(|e| format!("# not writable: {e}\n"));
        format!(
            "# impactkit system file (impactkit system --help; docs/laws-regress.md \"System files\")\n{body}"
        )
    }

    /// Builds the system in backend `S`, checking every value; errors name
    /// `source` and the key.
    pub fn build<S: Scalar>(&self, source: &str, ctx: &S::Ctx) -> Result<System<S>, InputError> {
        let err = |key: &str, reason: String| InputError::new(format!("{source}: {key}"), reason);
        let num = |x: &Number, key: &str| -> Result<S, InputError> {
            value::<S>(&x.expr(), &format!("{source}: {key}"), ctx)
        };
        let nums = |xs: &[Number], key: &str| -> Result<Vec<S>, InputError> {
            xs.iter().map(|x| num(x, key)).collect()
        };
        let n = self.velocity.len();
        if n == 0 || n > MAX_COORDINATES {
            return Err(err(
                "velocity",
                format!("{n} components; a system has 1..={MAX_COORDINATES} coordinates"),
            ));
        }
        let velocity = nums(&self.velocity, "velocity")?;
        let mut all: Vec<S> = velocity.clone();
        let (mass, entries) = mass_matrix::<S>(
            self.masses.as_deref(),
            self.mass_matrix.as_deref(),
            n,
            source,
            ctx,
        )?;
        all.extend(entries);
        let default_e = match &self.restitution {
            Some(e) => Some(num(e, "restitution")?),
            None => None,
        };
        if self.contact.is_empty() || self.contact.len() > MAX_CONTACTS {
            return Err(err(
                "contact",
                format!(
                    "{} contacts; a system has 1..={MAX_CONTACTS}",
                    self.contact.len()
                ),
            ));
        }
        let unit = |x: &S, key: &str| -> Result<(), InputError> {
            let lo = decide(x, "e").map_err(|e| err(key, e.to_string()))?;
            let hi = decide(&(x.one_like() - x), "1 − e").map_err(|e| err(key, e.to_string()))?;
            if lo == Sign::Negative || hi == Sign::Negative {
                return Err(err(key, "must lie in [0, 1]".into()));
            }
            Ok(())
        };
        let energetic = match &self.energetic {
            Some(x) => {
                let r = num(x, "energetic")?;
                unit(&r, "energetic")?;
                all.push(r.clone());
                Some(r)
            }
            None => None,
        };
        let (mut contacts, mut ignored, mut normals, mut restitution, mut poisson) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (i, c) in self.contact.iter().enumerate() {
            let name = c.name.clone().unwrap_or_else(|| (i + 1).to_string());
            let key = format!("contact {name}");
            if c.normal.len() != n {
                return Err(err(
                    &format!("{key} normal"),
                    format!("{} components for {n} coordinates", c.normal.len()),
                ));
            }
            if contacts.contains(&name) || ignored.contains(&name) {
                return Err(err(&key, "two contacts have this name".into()));
            }
            if c.touching == Some(false) {
                ignored.push(name);
                continue;
            }
            let e = match (&c.restitution, &default_e) {
                (Some(e), _) => num(e, &format!("{key} restitution"))?,
                (None, Some(e)) => e.clone(),
                (None, None) => velocity[0].one_like(),
            };
            unit(&e, &format!("{key} restitution"))?;
            let pe = match &c.poisson {
                Some(x) => {
                    let pe = num(x, &format!("{key} poisson"))?;
                    unit(&pe, &format!("{key} poisson"))?;
                    all.push(pe.clone());
                    pe
                }
                None => e.clone(),
            };
            poisson.push(pe);
            let normal = nums(&c.normal, &format!("{key} normal"))?;
            all.extend(normal.iter().cloned());
            all.push(e.clone());
            contacts.push(name);
            normals.push(normal);
            restitution.push(e);
        }
        if normals.is_empty() {
            return Err(err("contact", "no contact is touching".into()));
        }
        let refs: Vec<&S> = all.iter().collect();
        crate::arith::check_compatible(&refs).map_err(|e| err("values", e.to_string()))?;
        let c = Contacts::new(mass.clone(), normals.clone())
            .map_err(|e| err("mass/normals", e.to_string()))?;
        c.check_independent()
            .map_err(|e| err("contact normals", e.to_string()))?;
        let coordinates = match &self.coordinates {
            Some(names) if names.len() != n => {
                return Err(err(
                    "coordinates",
                    format!("{} names for {n} coordinates", names.len()),
                ))
            }
            Some(names) => names.clone(),
            None => (1..=n).map(|i| format!("q{i}")).collect(),
        };
        Ok(System {
            name: self.name.clone().unwrap_or_else(|| source.to_string()),
            coordinates,
            contacts,
            ignored,
            mass,
            normals,
            restitution,
            poisson,
            energetic,
            velocity,
        })
    }

    /// Exact rationals, one Q(√d), or one number field Q(θ), when every number of the file lies there (`None`:
    /// only enclosures can hold them).
    pub fn exact_backend(&self, source: &str) -> Option<crate::arith::backend::Backend> {
        use crate::arith::backend::Backend;
        use crate::arith::{Algebraic, Quadratic, Rational};
        if self.build::<Rational>(source, &()).is_ok() {
            Some(Backend::Exact)
        } else if self.build::<Quadratic>(source, &()).is_ok() {
            Some(Backend::Quadratic)
        } else if self.build::<Algebraic>(source, &()).is_ok() {
            Some(Backend::Algebraic)
        } else {
            None
        }
    }

    /// An n-ball cradle on a line (Pasquero Sect. 4.1, Winandy–Leine Sect. 2): masses
    /// `masses`, gap functions φ_i = x_{i+1} − x_i − (r_i + r_{i+1}), ∇φ_i = e_{i+1} − e_i.
    pub fn cradle(masses: &[String], v0: &[String], eps: &str) -> Self {
        let n = masses.len();
        let contact = (0..n.saturating_sub(1))
            .map(|i| ContactSpec {
                name: Some(format!("{}{}", i + 1, i + 2)),
                normal: (0..n)
                    .map(|j| {
                        Number::Int(if j == i {
                            -1
                        } else if j == i + 1 {
                            1
                        } else {
                            0
                        })
                    })
                    .collect(),
                touching: None,
                restitution: None,
                poisson: None,
            })
            .collect();
        SystemFile {
            name: Some(format!("{n}-ball cradle, masses {}", masses.join(", "))),
            kind: Some("cradle".into()),
            coordinates: Some((1..=n).map(|i| format!("x{i}")).collect()),
            masses: Some(masses.iter().map(|m| Number::Text(m.clone())).collect()),
            mass_matrix: None,
            velocity: v0.iter().map(|v| Number::Text(v.clone())).collect(),
            restitution: Some(Number::Text(eps.to_string())),
            energetic: None,
            contact,
        }
    }

    /// The disk in a corner (Fassino–Pasquero 2020, Sect. 2): walls S1: kx − y = 0 and
    /// S2: kx + y = 0, k = tan α, the disk's centre in the wedge opening towards −x, so
    /// that ∇φ₁ = (−k, 1) and ∇φ₂ = (−k, −1) (zone Z1 of eq. (1) is η̇ = kẋ − ẏ > 0, an
    /// impact with S1). Mass `mass`; the disk's rotation does not enter (no friction).
    pub fn corner(alpha: &str, v0: &[String], eps: [&str; 2], mass: &str) -> Self {
        let k = format!("tan({alpha})");
        let wall = |name: &str, y: &str, e: &str| ContactSpec {
            name: Some(name.into()),
            normal: vec![Number::Text(format!("-{k}")), Number::Text(y.into())],
            touching: None,
            restitution: Some(Number::Text(e.into())),
            poisson: None,
        };
        SystemFile {
            name: Some(format!("disk in a corner, alpha = {alpha}")),
            kind: Some("corner".into()),
            coordinates: Some(vec!["x".into(), "y".into()]),
            masses: Some(vec![Number::Text(mass.into()), Number::Text(mass.into())]),
            mass_matrix: None,
            velocity: v0.iter().map(|v| Number::Text(v.clone())).collect(),
            restitution: None,
            energetic: None,
            contact: vec![wall("S1", "1", eps[0]), wall("S2", "-1", eps[1])],
        }
    }

    /// The billiard break (Seghete–Murphey Sect. VII-A): q = [x_a, y_a, x_b, y_b, x_c, y_c],
    /// c at the origin moving along the bisector with speed 1, a and b touching c at
    /// ±θ/2; ∇φ_a = (a − c, 0, c − a)/(r_a + r_c) and likewise for b. With `touching_ab`
    /// the contact a–b of a touching rack is added (its unit normal (a − b)/(r_a + r_b)).
    pub fn billiard(theta: &str, radii: [&str; 3], masses: [&str; 3], touching_ab: bool) -> Self {
        let (c, s) = (format!("cos(({theta})/2)"), format!("sin(({theta})/2)"));
        let t = |x: &str| Number::Text(x.to_string());
        let neg = |x: &str| Number::Text(format!("-{x}"));
        let zero = || Number::Int(0);
        let mut contact = vec![
            ContactSpec {
                name: Some("ac".into()),
                normal: vec![t(&c), t(&s), zero(), zero(), neg(&c), neg(&s)],
                touching: None,
                restitution: None,
                poisson: None,
            },
            ContactSpec {
                name: Some("bc".into()),
                normal: vec![zero(), zero(), t(&c), neg(&s), neg(&c), t(&s)],
                touching: None,
                restitution: None,
                poisson: None,
            },
        ];
        if touching_ab {
            let [ra, rb, rc] = radii;
            let dx = format!("(({ra})-({rb}))*{c}/(({ra})+({rb}))");
            let dy = format!("(({ra})+({rb})+2*({rc}))*{s}/(({ra})+({rb}))");
            contact.push(ContactSpec {
                name: Some("ab".into()),
                normal: vec![t(&dx), t(&dy), neg(&dx), neg(&dy), zero(), zero()],
                touching: None,
                restitution: None,
                poisson: None,
            });
        }
        let [ma, mb, mc] = masses;
        SystemFile {
            name: Some(format!(
                "billiard break, theta = {theta}, radii {}, masses {ma}, {mb}, {mc}",
                radii.join(", ")
            )),
            kind: Some("billiard".into()),
            coordinates: Some(
                ["xa", "ya", "xb", "yb", "xc", "yc"]
                    .map(String::from)
                    .to_vec(),
            ),
            masses: Some([ma, ma, mb, mb, mc, mc].map(t).to_vec()),
            mass_matrix: None,
            velocity: ["0", "0", "0", "0", "1", "0"].map(t).to_vec(),
            restitution: Some(t("1")),
            energetic: None,
            contact,
        }
    }
}

/// Whether balls a and b of the billiard break touch (|a − b| = r_a + r_b), decided
/// exactly where the inputs allow (rational or one Q(√d)), else with MPFR enclosures; an
/// overlap (θ < θ_min) is bad input for `--theta`.
pub fn billiard_touching(theta: &str, radii: [&str; 3]) -> Result<bool, InputError> {
    use crate::arith::{Algebraic, MpInterval, Quadratic, Rational};
    let [ra, rb, rc] = radii;
    let (c, s) = (format!("cos(({theta})/2)"), format!("sin(({theta})/2)"));
    let gap =
        format!("((({ra})-({rb}))*{c})^2 + ((({ra})+({rb})+2*({rc}))*{s})^2 - (({ra})+({rb}))^2");
    fn sign_of<S: Scalar>(e: &str, ctx: &S::Ctx) -> Option<Sign> {
        crate::lang::eval_str::<S>(e, ctx).ok().map(|x| x.sign())
    }
    let decided = sign_of::<Rational>(&gap, &())
        .or_else(|| sign_of::<Quadratic>(&gap, &()))
        .or_else(|| sign_of::<Algebraic>(&gap, &()))
        .or_else(|| sign_of::<MpInterval>(&gap, &4096))
        .unwrap_or(Sign::Unknown);
    match decided {
        Sign::Zero => Ok(true),
        Sign::Positive => Ok(false),
        Sign::Negative => Err(InputError::new(
            "--theta",
            "balls a and b overlap (theta is below theta_min)",
        )),
        Sign::Unknown => Err(InputError::new(
            "--theta",
            "cannot decide whether balls a and b touch (give theta exactly)",
        )),
    }
}
