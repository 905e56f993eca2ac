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
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ContactSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// ∇φ at the contact configuration (for an affine gap φ(q) = normal·q + offset).
    pub normal: Vec<Number>,
    /// The gap's constant term: φ(q) = normal·q + offset (default 0). With `q` it
    /// says whether the contact touches; `step` reads the contact as this gap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub touching: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restitution: Option<Number>,
    /// Poisson's coefficient of this contact, when it differs from `restitution`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poisson: Option<Number>,
    /// LZB: this contact's stiffness K (default `[lzb] stiffness`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stiffness: Option<Number>,
    /// LZB: this contact's exponent η of F = K δ^η (default `[lzb] exponent`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exponent: Option<Number>,
    /// LZB: this contact's energetic coefficient (default: the file's `energetic`, else
    /// this contact's `restitution`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energetic: Option<Number>,
}

/// The `[lzb]` table: the compliant law of Liu–Zhao–Brogliato ([`crate::law::lzb`]) and
/// its ΔP scheme. Its presence adds LZB to `laws`; every key has a default.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LzbSpec {
    /// `bi-stiffness` (default) or `mono-stiffness`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compliance: Option<String>,
    /// η of every contact (default 3/2, Hertz).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exponent: Option<Number>,
    /// K of every contact (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stiffness: Option<Number>,
    /// The impulse step ΔP (default: the impulse that stops the most approaching contact
    /// alone, |γ_p|/G_pp, over `steps`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta_p: Option<Number>,
    /// With no `delta_p`, the number of steps that default ΔP takes to stop the most
    /// approaching contact alone (default 1000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// γ < −tol_velocity approaches (default 0; Siconos: the machine epsilon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tol_velocity: Option<Number>,
    /// E ≤ tol_energy is no energy (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tol_energy: Option<Number>,
    /// The most steps (default 10⁶).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u64>,
    /// The certified limit's time steps per δ_max/|γ_p| (default 400).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_steps: Option<u64>,
    /// The certified limit's most steps (default 10⁶).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_max_steps: Option<u64>,
}

/// A spring of a system file (read by `step`): V_j = ½ k (a·q + b)².
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SpringSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub stiffness: Number,
    pub a: Vec<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<Number>,
}

/// A gap as `step` files first wrote it: φ(q) = a·q + b ≥ 0, the normal a (the same
/// as a `[[contact]]` with `normal = a`, `offset = b`).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct GapSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub a: Vec<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub b: Option<Number>,
}

impl GapSpec {
    /// The gap as a contact.
    pub fn contact(&self) -> ContactSpec {
        ContactSpec {
            name: self.name.clone(),
            normal: self.a.clone(),
            offset: self.b.clone(),
            ..ContactSpec::default()
        }
    }
}

/// A system file as written, before any arithmetic: one schema for `laws`, `regress`
/// and `step` (docs/laws-regress.md "System files"). The impact laws read the
/// velocity (`velocity`, or `p` = M q̇⁻) and the touching contacts; `step` reads the
/// configuration `q`, the momentum (`p`, or M·`velocity`), `force`, the springs and
/// every contact as a gap. Each ignores the other's keys.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
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
    /// q̇⁻ (give it or `p`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub velocity: Vec<Number>,
    /// The configuration: with it a contact touches where its gap is 0 (unless its
    /// `touching` says otherwise); `step` starts there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<Vec<Number>>,
    /// The momentum covector p = M q̇ (instead of `velocity`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p: Option<Vec<Number>>,
    /// A constant generalized force (read by `step`; V = −f·q).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force: Option<Vec<Number>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spring: Vec<SpringSpec>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub restitution: Option<Number>,
    /// The energetic R of Seghete–Murphey (16), one for every contact (default: the
    /// contacts' common coefficient).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energetic: Option<Number>,
    #[serde(default)]
    pub contact: Vec<ContactSpec>,
    /// The compliant law of Liu–Zhao–Brogliato: its presence adds it to `laws`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lzb: Option<LzbSpec>,
    /// Contacts in the `step` spelling (`a`, `b`), read as `[[contact]]`s after those.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gap: Vec<GapSpec>,
    /// A general Lagrangian system (M(q), V(q), forces, curved gaps) for `step`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lagrangian: Option<LagrangianSpec>,
}

/// `[lagrangian]`: a general Lagrangian system for `step` (Seghete–Murphey Sect. VI),
/// every entry an expression of the input language in the coordinates (and, for `force`,
/// their rates `<name>_dot` and the time `t`); see [`crate::system::lagrangian`].
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LagrangianSpec {
    /// Named constants, `"name = expression"`, each using the ones before it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parameters: Vec<String>,
    /// The diagonal of M(q), or
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub masses: Option<Vec<Number>>,
    /// M(q), symmetric.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mass_matrix: Option<Vec<Vec<Number>>>,
    /// V(q).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub potential: Option<Number>,
    /// The generalized force F(q, q̇, t) (dampers, a controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub force: Option<Vec<Number>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contact: Vec<CurvedContactSpec>,
    /// Rigid bodies whose kinetic energy joins M(q) (with `mass_matrix` or `masses`, or
    /// alone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub body: Vec<BodySpec>,
    /// g: the potential gains Σ m_b g c_b,last (the last component of each body's
    /// centre of mass is the height).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gravity: Option<Number>,
}

/// `[[lagrangian.body]]`: a rigid body with its centre of mass c(q) (1 to 3 components),
/// its mass, and in the plane its angle θ(q) with the moment of inertia I about the centre
/// of mass: T = ½ m |ċ|² + ½ I θ̇², so M(q) gains m J_cᵀJ_c + I ∇θ ∇θᵀ.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct BodySpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub mass: Number,
    pub position: Vec<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub angle: Option<Number>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inertia: Option<Number>,
}

/// `[[lagrangian.contact]]`: a gap φ(q) ≥ 0.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CurvedContactSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub gap: Number,
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
    /// The LZB law's parameters, when the file has an `[lzb]` table.
    pub lzb: Option<crate::law::lzb::Lzb<S>>,
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
            // one field for the entries before M_ij − M_ji meets them
            let refs: Vec<&S> = full.iter().flatten().collect();
            crate::arith::check_compatible(&refs).map_err(|e| err("mass_matrix", e.to_string()))?;
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

/// What the `[lzb]` table and the contacts' LZB keys are read with.
struct LzbRead<'a, S: Scalar> {
    source: &'a str,
    num: &'a dyn Fn(&Number, &str) -> Result<S, InputError>,
    /// The touching contacts' coefficients, and the file's `energetic`.
    restitution: &'a [S],
    energetic: Option<&'a S>,
}

impl<S: Scalar> LzbRead<'_, S> {
    fn err(&self, key: &str, reason: impl Into<String>) -> InputError {
        InputError::new(format!("{}: {key}", self.source), reason.into())
    }

    /// η = p/q from its text: a positive rational with p, q ≤ 64.
    fn exponent(&self, x: &Number, key: &str) -> Result<crate::law::lzb::Exponent, InputError> {
        use crate::arith::Rational;
        let r = value::<Rational>(&x.expr(), &format!("{}: {key}", self.source), &())?;
        let bad = || {
            self.err(
                key,
                "must be a positive rational p/q with p, q ≤ 64 (3/2: Hertz)",
            )
        };
        let (q, _) = r.rational_bounds().ok_or_else(bad)?;
        let p = u32::try_from(q.numer()).map_err(|_| bad())?;
        let d = u32::try_from(q.denom()).map_err(|_| bad())?;
        crate::law::lzb::Exponent::new(p, d).ok_or_else(bad)
    }

    /// A value of the file that must be positive (`zero_ok`: or 0).
    fn positive(&self, x: &Number, key: &str, zero_ok: bool) -> Result<S, InputError> {
        let v = (self.num)(x, key)?;
        let s = decide(&v, key).map_err(|e| self.err(key, e.to_string()))?;
        if s == Sign::Negative || (s == Sign::Zero && !zero_ok) {
            let what = if zero_ok {
                "must not be negative"
            } else {
                "must be positive"
            };
            return Err(self.err(key, what));
        }
        Ok(v)
    }

    /// The law's parameters for the touching contacts (`touching`: spec and key).
    fn params(
        &self,
        spec: &LzbSpec,
        touching: &[(&ContactSpec, String)],
    ) -> Result<crate::law::lzb::Lzb<S>, InputError> {
        use crate::law::lzb::{Compliance, Exponent, Lzb};
        let compliance = match spec.compliance.as_deref() {
            None => Compliance::BiStiffness,
            Some(c) => Compliance::parse(c).ok_or_else(|| {
                self.err(
                    "lzb compliance",
                    format!("unknown \"{c}\" (bi-stiffness or mono-stiffness)"),
                )
            })?,
        };
        let exponent = match &spec.exponent {
            Some(x) => self.exponent(x, "lzb exponent")?,
            None => Exponent::HERTZ,
        };
        let stiffness = match &spec.stiffness {
            Some(x) => Some(self.positive(x, "lzb stiffness", false)?),
            None => None,
        };
        let opt = |x: &Option<Number>, key: &str, zero_ok| -> Result<Option<S>, InputError> {
            x.as_ref()
                .map(|x| self.positive(x, key, zero_ok))
                .transpose()
        };
        let delta_p = opt(&spec.delta_p, "lzb delta_p", false)?;
        let tol_velocity = opt(&spec.tol_velocity, "lzb tol_velocity", true)?;
        let tol_energy = opt(&spec.tol_energy, "lzb tol_energy", true)?;
        let count = |x: Option<u64>, key: &str, default: u64| -> Result<usize, InputError> {
            match x.unwrap_or(default) {
                n @ 1..=100_000_000 => Ok(n as usize),
                _ => Err(self.err(key, "must lie in 1..=100000000")),
            }
        };
        let steps = count(spec.steps, "lzb steps", 1000)?;
        let max_steps = count(spec.max_steps, "lzb max_steps", 1_000_000)?;
        let limit_steps = count(spec.limit_steps, "lzb limit_steps", 400)?;
        let limit_max_steps = count(spec.limit_max_steps, "lzb limit_max_steps", 1_000_000)?;
        let one = self.restitution[0].one_like();
        let (mut ks, mut etas, mut es) = (Vec::new(), Vec::new(), Vec::new());
        for ((c, key), e) in touching.iter().zip(self.restitution) {
            ks.push(match (&c.stiffness, &stiffness) {
                (Some(x), _) => self.positive(x, &format!("{key} stiffness"), false)?,
                (None, Some(k)) => k.clone(),
                (None, None) => one.clone(),
            });
            etas.push(match &c.exponent {
                Some(x) => self.exponent(x, &format!("{key} exponent"))?,
                None => exponent,
            });
            let e = match (&c.energetic, self.energetic) {
                (Some(x), _) => {
                    let k = format!("{key} energetic");
                    let e = self.positive(x, &k, true)?;
                    let above =
                        decide(&e.sub_r(&one), &k).map_err(|x| self.err(&k, x.to_string()))?;
                    if above == Sign::Positive {
                        return Err(self.err(&k, "must lie in [0, 1]"));
                    }
                    e
                }
                (None, Some(r)) => r.clone(),
                (None, None) => e.clone(),
            };
            es.push(e);
        }
        let zero = one.zero_like();
        Ok(Lzb {
            stiffness: ks,
            exponent: etas,
            restitution: es,
            compliance,
            delta_p,
            steps,
            tol_velocity: tol_velocity.unwrap_or_else(|| zero.clone()),
            tol_energy: tol_energy.unwrap_or(zero),
            max_steps,
            limit_steps,
            limit_max_steps,
        })
    }
}

/// Whether contact `c` (normal read already) touches: its `touching` when given, else
/// with a configuration `q` whether its gap φ(q) = normal·q + offset is 0 (decided
/// exactly; a negative gap is an overlap, an error), else yes.
fn touches<S: Scalar>(
    c: &ContactSpec,
    normal: &[S],
    q: Option<&[S]>,
    (source, key): (&str, &str),
    num: &dyn Fn(&Number, &str) -> Result<S, InputError>,
) -> Result<bool, InputError> {
    let (Some(q), None) = (q, c.touching) else {
        return Ok(c.touching != Some(false));
    };
    let offset = match &c.offset {
        Some(b) => num(b, &format!("{key} offset"))?,
        None => q[0].zero_like(),
    };
    let at = |reason: String| InputError::new(format!("{source}: {key}"), reason);
    // one field for the normal, q and the offset before they meet
    let refs: Vec<&S> = normal.iter().chain(q).chain([&offset]).collect();
    crate::arith::check_compatible(&refs).map_err(|e| at(e.to_string()))?;
    let gap = crate::linalg::dot(normal.iter(), q.iter()) + &offset;
    match decide(&gap, "φ(q)").map_err(|e| at(e.to_string()))? {
        Sign::Zero => Ok(true),
        Sign::Positive => Ok(false),
        Sign::Negative => Err(at("its gap is negative at q (the bodies overlap)".into())),
        Sign::Unknown => Err(at("the sign of its gap at q is undecided".into())),
    }
}

impl SystemFile {
    /// Reads TOML; `source` names the file in errors.
    pub fn from_toml(text: &str, source: &str) -> Result<Self, InputError> {
        let file: SystemFile = toml::from_str(text).map_err(|e| {
            InputError::new(source, crate::input::suggest::serde_message(e.message()))
        })?;
        // every command needs the motion: the laws q̇⁻, the stepper p (or q̇)
        if file.velocity.is_empty() && file.p.is_none() {
            return Err(InputError::new(
                format!("{source}: velocity"),
                "missing: give `velocity` (q̇⁻) or `p` (the momentum M q̇⁻)",
            ));
        }
        Ok(file)
    }

    /// The same system with its `[[gap]]`s written as `[[contact]]`s (after the others).
    pub fn with_gaps_as_contacts(&self) -> SystemFile {
        let mut out = self.clone();
        out.contact.extend(out.gap.drain(..).map(|g| g.contact()));
        out
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
        if self.lagrangian.is_some() {
            return Err(err(
                "lagrangian",
                "a [lagrangian] system runs in `step`; the laws at one configuration read `masses` or `mass_matrix` and [[contact]] normals (M(q) and ∇φ(q) there)".into(),
            ));
        }
        let (n, key) = match (&self.velocity[..], &self.p) {
            (v, None) => (v.len(), "velocity"),
            ([], Some(p)) => (p.len(), "p"),
            (_, Some(_)) => {
                return Err(err("p", "give `velocity` or `p`, not both".into()));
            }
        };
        if n == 0 || n > MAX_COORDINATES {
            return Err(err(
                key,
                format!("{n} components; a system has 1..={MAX_COORDINATES} coordinates"),
            ));
        }
        let (mass, entries) = mass_matrix::<S>(
            self.masses.as_deref(),
            self.mass_matrix.as_deref(),
            n,
            source,
            ctx,
        )?;
        let velocity = match &self.p {
            None => nums(&self.velocity, "velocity")?,
            // q̇⁻ = M⁻¹ p
            Some(p) => {
                let p = nums(p, "p")?;
                // one field for M and p before they meet
                let refs: Vec<&S> = entries.iter().chain(&p).collect();
                crate::arith::check_compatible(&refs).map_err(|e| err("p", e.to_string()))?;
                mass.solve(&p)
                    .map_err(|e| err("mass_matrix", e.to_string()))?
            }
        };
        let mut all: Vec<S> = velocity.clone();
        all.extend(entries);
        let q = match &self.q {
            Some(q) if q.len() != n => {
                return Err(err(
                    "q",
                    format!("{} components for {n} coordinates", q.len()),
                ))
            }
            Some(q) => Some(nums(q, "q")?),
            None => None,
        };
        all.extend(q.iter().flatten().cloned());
        let default_e = match &self.restitution {
            Some(e) => Some(num(e, "restitution")?),
            None => None,
        };
        let specs: Vec<std::borrow::Cow<ContactSpec>> = (self.contact.iter())
            .map(std::borrow::Cow::Borrowed)
            .chain(
                self.gap
                    .iter()
                    .map(|g| std::borrow::Cow::Owned(g.contact())),
            )
            .collect();
        if specs.is_empty() || specs.len() > MAX_CONTACTS {
            return Err(err(
                "contact",
                format!("{} contacts; a system has 1..={MAX_CONTACTS}", specs.len()),
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
        let mut touching: Vec<(&ContactSpec, String)> = Vec::new();
        for (i, c) in specs.iter().enumerate() {
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
            let normal = nums(&c.normal, &format!("{key} normal"))?;
            if !touches(c, &normal, q.as_deref(), (source, &key), &num)? {
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
            touching.push((c, key));
            all.extend(normal.iter().cloned());
            all.push(e.clone());
            contacts.push(name);
            normals.push(normal);
            restitution.push(e);
        }
        if normals.is_empty() {
            let why = match q {
                Some(_) => "no contact touches at q (every gap is positive): the impact laws need the system at an impact",
                None => "no contact is touching",
            };
            return Err(err("contact", why.into()));
        }
        let lzb = match &self.lzb {
            Some(spec) => {
                let read = LzbRead {
                    source,
                    num: &num,
                    restitution: &restitution,
                    energetic: energetic.as_ref(),
                };
                let l = read.params(spec, &touching)?;
                all.extend(l.stiffness.iter().chain(&l.restitution).cloned());
                Some(l)
            }
            None => None,
        };
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
            lzb,
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
                ..ContactSpec::default()
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
            ..SystemFile::default()
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
            ..ContactSpec::default()
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
            ..SystemFile::default()
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
                ..ContactSpec::default()
            },
            ContactSpec {
                name: Some("bc".into()),
                normal: vec![zero(), zero(), t(&c), neg(&s), neg(&c), t(&s)],
                touching: None,
                restitution: None,
                poisson: None,
                ..ContactSpec::default()
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
                ..ContactSpec::default()
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
            ..SystemFile::default()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;
    use crate::system::step_file::StepFile;

    fn build(text: &str) -> Result<System<Rational>, InputError> {
        SystemFile::from_toml(text, "f.toml")?.build::<Rational>("f.toml", &())
    }

    /// One file for the laws and the stepper: `p` gives q̇⁻ = M⁻¹p exactly, `[[gap]]`s
    /// are contacts, and with `q` a contact touches exactly where its gap is 0.
    #[test]
    fn the_step_spelling_is_a_system_at_impact() {
        let text = r#"
            masses = ["2", "1", "1"]
            q = ["0", "1", "5/2"]
            p = ["1", "0", "0"]
            [[gap]]
            name = "12"
            a = ["-1", "1", "0"]
            b = "-1"
            [[contact]]
            name = "23"
            normal = ["0", "-1", "1"]
            offset = "-1"
        "#;
        let sys = build(text).unwrap();
        let half = Rational::new(1, 2);
        assert_eq!(sys.velocity[0], half);
        // the [[contact]] comes first; gap 23 is 1/2 > 0 at q, gap 12 is 0
        assert_eq!(sys.contacts, ["12"]);
        assert_eq!(sys.ignored, ["23"]);
        let step = StepFile::from_toml(text, "f.toml").unwrap();
        let names: Vec<_> = step.gap.iter().map(|g| g.name.clone().unwrap()).collect();
        assert_eq!(names, ["23", "12"]);
        assert!(step.gap[0].b.is_some() && step.p.is_some() && step.velocity.is_none());
    }

    /// An overlap at q, `velocity` beside `p`, and a step without `q` are errors that
    /// name the key.
    #[test]
    fn contradictions_name_their_key() {
        let overlap = r#"
            masses = ["1", "1"]
            q = ["0", "1/2"]
            velocity = ["1", "0"]
            [[contact]]
            name = "12"
            normal = ["-1", "1"]
            offset = "-1"
        "#;
        let e = build(overlap).unwrap_err().to_string();
        assert!(
            e.contains("f.toml: contact 12") && e.contains("overlap"),
            "{e}"
        );
        let both =
            "masses = [\"1\"]\nvelocity = [\"1\"]\np = [\"1\"]\n[[contact]]\nnormal = [\"1\"]";
        let e = build(both).unwrap_err().to_string();
        assert!(e.contains("f.toml: p") && e.contains("not both"), "{e}");
        // two square roots that cannot meet in one Q(√d): an error, not a crash
        let fields = "masses = [\"1\"]\nq = [\"sqrt(2)\"]\nvelocity = [\"-1\"]\n[[contact]]\nnormal = [\"1\"]\noffset = \"sqrt(3)\"";
        let quadratic_error = |text: &str| {
            SystemFile::from_toml(text, "f.toml")
                .unwrap()
                .build::<crate::arith::Quadratic>("f.toml", &())
                .unwrap_err()
                .to_string()
        };
        let e = quadratic_error(fields);
        assert!(e.contains("f.toml: contact 1"), "{e}");
        let f = SystemFile::from_toml(fields, "f.toml").unwrap();
        assert_ne!(
            f.exact_backend("f.toml"),
            Some(crate::arith::backend::Backend::Quadratic)
        );
        let step = StepFile::from_toml(fields, "f.toml").unwrap();
        let e = step
            .build::<crate::arith::Quadratic>("f.toml", &())
            .unwrap_err();
        assert!(e.to_string().contains("f.toml: gap 1"), "{e}");
        let p_fields = "masses = [\"sqrt(2)\"]\np = [\"sqrt(3)\"]\n[[contact]]\nnormal = [\"1\"]";
        let e = quadratic_error(p_fields);
        assert!(e.contains("f.toml: p"), "{e}");
        let matrix = "mass_matrix = [[\"4\", \"sqrt(2)\"], [\"sqrt(3)\", \"4\"]]\nvelocity = [\"1\", \"0\"]\n[[contact]]\nnormal = [\"-1\", \"1\"]";
        let e = quadratic_error(matrix);
        assert!(e.contains("f.toml: mass_matrix"), "{e}");
        let laws_only = "masses = [\"1\"]\nvelocity = [\"-1\"]\n[[contact]]\nnormal = [\"1\"]";
        assert!(build(laws_only).is_ok());
        let e = StepFile::from_toml(laws_only, "f.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("f.toml: q") && e.contains("missing"), "{e}");
    }

    /// The new keys survive a round trip through TOML.
    #[test]
    fn a_full_file_round_trips() {
        let text = r#"
            masses = ["1", "1"]
            q = ["0", "1"]
            velocity = ["1", "0"]
            force = ["0", "-10"]
            [[spring]]
            stiffness = "3"
            a = ["1", "0"]
            [[contact]]
            normal = ["-1", "1"]
            offset = "-1"
        "#;
        let f = SystemFile::from_toml(text, "f.toml").unwrap();
        assert_eq!(SystemFile::from_toml(&f.to_toml(), "again").unwrap(), f);
    }
}
