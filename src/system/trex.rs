//! The TREX design study of Seghete–Murphey, Sect. VII-B (Fig. 6, Table I, Figs. 7–8), as
//! a **declared model**: the paper gives the configuration variables, the densities, the
//! limb cross-section, the tail-length formula and Table I, but not the body shapes, the
//! attachment points or the angle conventions. Every such choice here is ours and is
//! written down in `docs/trex-model.md`:
//!
//! - planar, x to the right, y up, the floor at y = 0; every angle counter-clockwise from
//!   +x, in radians;
//! - q = [x, y, θ, φL, γL, φR, γR, φT] (the paper's order); (x, y) is the centre of the
//!   anterior body, θ the direction of the body axis from the anterior body towards the
//!   posterior body and the tail (the robot faces θ + π);
//! - the anterior and posterior bodies are uniform spheres of radii r1, r2 and density
//!   1 g/cm³ (m = 4/3 π r³, I = 2/5 m r²), the posterior centre at distance r1 + r2 along
//!   θ; the posterior segment (sphere and tail) turns about the posterior centre, its
//!   direction θ + φT;
//! - the tail is a uniform rod of length L_tail(r1, r2) (the printed formula, or — as an
//!   alternative the data point to — the distance to the external homothetic centre of
//!   the two body circles) from the posterior centre along θ + φT;
//! - both hips at the anterior centre; the thigh (length l_u) along θ + π + φ, the shank
//!   (length l_l) along θ + π + φ + γ; limbs are uniform rods of 2 g/cm³ × 1.25 cm²
//!   = 5/2 g/cm (m = 5/2·l, I = m l²/12);
//! - gaps φ_tail(q) = y of the tail tip, φ_foot(q) = y of the right foot tip; normals
//!   u = Dφ_tail, v = Dφ_foot (forward-mode [`Dual`]).
//!
//! M(q) = Σ m J_cᵀJ_c + I J_ωᵀJ_ω over the seven bodies (J_c the Jacobian of a body's
//! centre, J_ω of its angle), ⟨u, v⟩_g = u M⁻¹ vᵀ through [`Contacts::inner`], and the
//! indeterminacy ξ of Sect. VII-A, ξ² = ‖p_ab − p_ba‖²_g / ‖p0‖²_g, for the robot falling
//! straight down (q̇ = −e_y, p0 = q̇ᵀM).
//!
//! The optimisation of Sect. VII-B: an underdetermined Newton iteration (minimum-norm
//! steps, f64) from Table I's Initial row to a nearby design and configuration with
//! φ_tail = φ_foot = ⟨u, v⟩_g = 0; then every variable but (y, φR, φT) is fixed at a
//! 6-decimal rational, the square system is solved in MPFR, and a Krawczyk step in MPFR
//! intervals proves a unique exact zero in a small box ([`certify_orthogonal`]).

use crate::arith::dual::Dual;
use crate::arith::{float_to_rat, MpInterval, Mpfr, Scalar};
use crate::law::propagative::{ordered_outcome, Contacts};
use crate::law::LawError;
use crate::linalg::{solve, sub, SymMatrix, Vector};
use num_rational::BigRational;
use num_traits::{FromPrimitive, ToPrimitive};

/// The names of the configuration variables, in the paper's order.
pub const COORDS: [&str; 8] = [
    "x", "y", "theta", "phi_l", "gamma_l", "phi_r", "gamma_r", "phi_t",
];

/// The names of the design parameters.
pub const DESIGN: [&str; 4] = ["r1", "r2", "lu", "ll"];

/// How the tail length follows from the radii.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TailRule {
    /// L_tail as printed in Sect. VII-B.
    Printed,
    /// (r1 + r2) r2 / (r1 − r2): the tail tip at the external homothetic centre of the
    /// two body circles, where the common tangents meet (ours; what Table I's rows fit).
    Homothetic,
}

/// The design parameters of Table I: body radii and leg segment lengths (cm).
#[derive(Clone, Debug)]
pub struct TrexDesign<S> {
    pub r1: S,
    pub r2: S,
    pub lu: S,
    pub ll: S,
}

impl<S: Scalar> TrexDesign<S> {
    /// From [r1, r2, lu, ll].
    pub fn from_array(d: [S; 4]) -> Self {
        let [r1, r2, lu, ll] = d;
        TrexDesign { r1, r2, lu, ll }
    }
    /// [r1, r2, lu, ll].
    pub fn to_array(&self) -> [S; 4] {
        [
            self.r1.clone(),
            self.r2.clone(),
            self.lu.clone(),
            self.ll.clone(),
        ]
    }
    fn map<T: Scalar>(&self, f: impl Fn(&S) -> T) -> TrexDesign<T> {
        TrexDesign {
            r1: f(&self.r1),
            r2: f(&self.r2),
            lu: f(&self.lu),
            ll: f(&self.ll),
        }
    }
}

/// L_tail = (r1³ + r1²r2 + √2 √(r1⁴r2² + r1³r2³)) / (r1² − r2²) − (r1 + r2), Sect. VII-B,
/// exactly as printed.
pub fn l_tail<S: Scalar>(r1: &S, r2: &S) -> Result<S, LawError> {
    let r1s = r1.square();
    let r2s = r2.square();
    let r13 = r1s.mul_r(r1);
    let root = (r1s.square() * &r2s + &(r13.clone() * &r2s * r2)).sqrt()?;
    let num = r13 + &(r1s.clone() * r2) + &(r1.lift_i64(2).sqrt()? * &root);
    Ok(num.checked_div(&(r1s - &r2s))? - &r1.add_r(r2))
}

/// (r1 + r2) r2 / (r1 − r2): the tail length that puts the tip at the external homothetic
/// centre of the two body circles (ours, [`TailRule::Homothetic`]).
pub fn l_tail_homothetic<S: Scalar>(r1: &S, r2: &S) -> Result<S, LawError> {
    Ok((r1.add_r(r2) * r2).checked_div(&r1.sub_r(r2))?)
}

/// One rigid body of the declared model.
#[derive(Clone, Debug)]
pub struct Body<T> {
    pub name: &'static str,
    pub mass: T,
    /// About the centre of mass (g cm²).
    pub inertia: T,
    pub center: (T, T),
    pub angle: T,
}

/// The bodies and the contact points at one configuration.
#[derive(Clone, Debug)]
pub struct Layout<T> {
    pub bodies: Vec<Body<T>>,
    pub tail_tip: (T, T),
    pub foot_right: (T, T),
    pub foot_left: (T, T),
    pub tail_length: T,
}

fn dir<T: Scalar>(a: &T) -> Result<(T, T), LawError> {
    Ok((a.cos()?, a.sin()?))
}

fn along<T: Scalar>(p: &(T, T), len: &T, d: &(T, T)) -> (T, T) {
    (p.0.add_r(&len.mul_r(&d.0)), p.1.add_r(&len.mul_r(&d.1)))
}

/// The declared model's bodies, tail tip and feet at q ([x, y, θ, φL, γL, φR, γR, φT]).
pub fn layout<T: Scalar>(
    d: &TrexDesign<T>,
    q: &[T],
    tail: TailRule,
) -> Result<Layout<T>, LawError> {
    if q.len() != 8 {
        return Err(LawError::Domain(format!(
            "TREX has 8 coordinates, got {}",
            q.len()
        )));
    }
    let one = q[0].one_like();
    let pi = T::pi(&one.ctx())?;
    let frac = |n: i64, m: i64| one.lift(&BigRational::new(n.into(), m.into()));
    let (x, y, th, phl, gal, phr, gar, pht) =
        (&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7]);
    let lambda = frac(5, 2); // 2 g/cm³ × 1.25 cm²
    let sphere = |r: &T| {
        let m = frac(4, 3) * &pi * &r.square() * r;
        let i = frac(2, 5) * &m * &r.square();
        (m, i)
    };
    let rod = |l: &T| {
        let m = lambda.mul_r(l);
        let i = m.mul_r(&l.square()).checked_div(&one.lift_i64(12));
        (m, i)
    };
    let c1 = (x.clone(), y.clone());
    let axis = dir(th)?;
    let c2 = along(&c1, &d.r1.add_r(&d.r2), &axis);
    let at = th.add_r(pht);
    let tail_dir = dir(&at)?;
    let lt = match tail {
        TailRule::Printed => l_tail(&d.r1, &d.r2)?,
        TailRule::Homothetic => l_tail_homothetic(&d.r1, &d.r2)?,
    };
    let half = frac(1, 2);
    let tail_tip = along(&c2, &lt, &tail_dir);
    let tail_mid = along(&c2, &half.mul_r(&lt), &tail_dir);
    let (m1, i1) = sphere(&d.r1);
    let (m2, i2) = sphere(&d.r2);
    let (mt, it) = rod(&lt);
    let mut bodies = vec![
        Body {
            name: "anterior",
            mass: m1,
            inertia: i1,
            center: c1.clone(),
            angle: th.clone(),
        },
        Body {
            name: "posterior",
            mass: m2,
            inertia: i2,
            center: c2,
            angle: at.clone(),
        },
        Body {
            name: "tail",
            mass: mt,
            inertia: it?,
            center: tail_mid,
            angle: at,
        },
    ];
    let mut feet = Vec::new();
    for (side, phi, gamma) in [("left", phl, gal), ("right", phr, gar)] {
        let a_u = th.add_r(&pi).add_r(phi);
        let a_l = a_u.add_r(gamma);
        let du = dir(&a_u)?;
        let dl = dir(&a_l)?;
        let knee = along(&c1, &d.lu, &du);
        let foot = along(&knee, &d.ll, &dl);
        let (mu, iu) = rod(&d.lu);
        let (ml, il) = rod(&d.ll);
        bodies.push(Body {
            name: if side == "left" { "thigh L" } else { "thigh R" },
            mass: mu,
            inertia: iu?,
            center: along(&c1, &half.mul_r(&d.lu), &du),
            angle: a_u,
        });
        bodies.push(Body {
            name: if side == "left" { "shank L" } else { "shank R" },
            mass: ml,
            inertia: il?,
            center: along(&knee, &half.mul_r(&d.ll), &dl),
            angle: a_l,
        });
        feet.push(foot);
    }
    let foot_right = feet.pop().expect("two legs");
    let foot_left = feet.pop().expect("two legs");
    Ok(Layout {
        bodies,
        tail_tip,
        foot_right,
        foot_left,
        tail_length: lt,
    })
}

/// (φ_tail, φ_foot) and [u, v].
pub type GapsNormals<S> = ((S, S), [Vector<S>; 2]);

/// A design and a configuration of the declared model.
#[derive(Clone, Debug)]
pub struct TrexPoint<S> {
    pub design: TrexDesign<S>,
    /// [x, y, θ, φL, γL, φR, γR, φT].
    pub q: Vec<S>,
    pub tail: TailRule,
}

/// What the declared model gives at one point.
#[derive(Clone, Debug)]
pub struct TrexReport<S> {
    /// φ_tail, φ_foot (right), and the left foot's height.
    pub gap_tail: S,
    pub gap_foot: S,
    pub gap_left: S,
    pub tail_length: S,
    /// ⟨u, v⟩_g.
    pub inner: S,
    /// ⟨u, v⟩_g / (‖u‖_g ‖v‖_g).
    pub cosine: S,
    /// ξ² for the straight fall.
    pub xi_squared: S,
}

impl<S: Scalar> TrexPoint<S> {
    /// The configuration as duals seeded on its 8 coordinates.
    fn seeded(&self) -> (TrexDesign<Dual<S>>, Vec<Dual<S>>) {
        let q = self
            .q
            .iter()
            .enumerate()
            .map(|(i, v)| Dual::var(v.clone(), i, 8))
            .collect();
        (self.design.map(|v| Dual::constant(v.clone())), q)
    }

    /// The layout at the point.
    pub fn layout(&self) -> Result<Layout<S>, LawError> {
        layout(&self.design, &self.q, self.tail)
    }

    /// M(q) = Σ m J_cᵀJ_c + I J_ωᵀJ_ω (8×8).
    pub fn mass_matrix(&self) -> Result<SymMatrix<S>, LawError> {
        let (d, q) = self.seeded();
        let l = layout(&d, &q, self.tail)?;
        let n = 8;
        let zero = self.q[0].zero_like();
        let mut upper: Vec<Vec<S>> = (0..n).map(|i| vec![zero.clone(); n - i]).collect();
        for b in &l.bodies {
            let jx = b.center.0.gradient(n);
            let jy = b.center.1.gradient(n);
            let jw = b.angle.gradient(n);
            for i in 0..n {
                for j in i..n {
                    let t = b
                        .mass
                        .value
                        .mul_r(&(jx[i].mul_r(&jx[j]) + &jy[i].mul_r(&jy[j])))
                        + &b.inertia.value.mul_r(&jw[i].mul_r(&jw[j]));
                    upper[i][j - i] = upper[i][j - i].add_r(&t);
                }
            }
        }
        Ok(SymMatrix::from_upper(upper)?)
    }

    /// The gaps (tail tip, right foot) and the normals u = Dφ_tail, v = Dφ_foot.
    pub fn gaps_and_normals(&self) -> Result<GapsNormals<S>, LawError> {
        let (d, q) = self.seeded();
        let l = layout(&d, &q, self.tail)?;
        Ok((
            (l.tail_tip.1.value.clone(), l.foot_right.1.value.clone()),
            [l.tail_tip.1.gradient(8), l.foot_right.1.gradient(8)],
        ))
    }

    /// The kinetic metric with the two normals.
    pub fn contacts(&self) -> Result<Contacts<S>, LawError> {
        let (_, normals) = self.gaps_and_normals()?;
        Contacts::new(self.mass_matrix()?, normals.to_vec())
    }

    /// (φ_tail, φ_foot, ⟨u, v⟩_g): the three equations of the optimisation.
    pub fn residual(&self) -> Result<[S; 3], LawError> {
        let ((gt, gf), _) = self.gaps_and_normals()?;
        let c = self.contacts()?;
        Ok([gt, gf, c.inner(&c.normals[0], &c.normals[1])?])
    }

    /// The straight fall: q̇ = −e_y, p0 = q̇ᵀM.
    pub fn falling_momentum(&self, c: &Contacts<S>) -> Vector<S> {
        let z = self.q[0].zero_like();
        let mut v = vec![z; 8];
        v[1] = -self.q[0].one_like();
        c.mass.apply(&v)
    }

    /// ξ² = ‖p_ab − p_ba‖²_g / ‖p0‖²_g for the straight fall (Sect. VII-A's measure): the
    /// tail resolved first against the foot first.
    pub fn xi_squared(&self, c: &Contacts<S>) -> Result<S, LawError> {
        let p0 = self.falling_momentum(c);
        let ab = ordered_outcome(c, &p0, 0, 16)?;
        let ba = ordered_outcome(c, &p0, 1, 16)?;
        let dlt = sub(&ab.1, &ba.1);
        Ok(c.inner(&dlt, &dlt)?.checked_div(&c.inner(&p0, &p0)?)?)
    }

    /// Everything at the point.
    pub fn report(&self) -> Result<TrexReport<S>, LawError> {
        let l = self.layout()?;
        let ((gt, gf), _) = self.gaps_and_normals()?;
        let c = self.contacts()?;
        let (u, v) = (&c.normals[0], &c.normals[1]);
        let inner = c.inner(u, v)?;
        let nn = (c.inner(u, u)? * &c.inner(v, v)?).sqrt()?;
        Ok(TrexReport {
            gap_tail: gt,
            gap_foot: gf,
            gap_left: l.foot_left.1,
            tail_length: l.tail_length,
            cosine: inner.checked_div(&nn)?,
            inner,
            xi_squared: self.xi_squared(&c)?,
        })
    }
}

/// A row of Table I: the printed columns x y θ φL φR γL γR φT, r1 r2 lu ll, ⟨u, v⟩_g.
#[derive(Clone, Debug)]
pub struct TableRow {
    pub system: &'static str,
    /// In the table's column order: x, y, θ, φL, φR, γL, γR, φT.
    pub columns: [&'static str; 8],
    pub design: [&'static str; 4],
    pub inner: &'static str,
}

/// The table's column names, in its order.
pub const TABLE_COLUMNS: [&str; 8] = [
    "x", "y", "theta", "phi_l", "phi_r", "gamma_l", "gamma_r", "phi_t",
];

/// Table I of Sect. VII-B as printed.
pub fn table_i() -> [TableRow; 2] {
    [
        TableRow {
            system: "Initial",
            columns: ["0", "12.38", "5.78", "5.13", "1.99", "5.24", "5.24", "0"],
            design: ["7", "4", "8", "10"],
            inner: "1.65e-3",
        },
        TableRow {
            system: "Optimized",
            columns: [
                "0", "13.69", "5.92", "4.79", "2.85", "5.71", "5.67", "-0.19",
            ],
            design: ["6.69", "4.22", "7.81", "9.86"],
            inner: "-2.28e-7",
        },
    ]
}

impl TableRow {
    /// The printed values as exact rationals, q in the paper's order
    /// [x, y, θ, φL, γL, φR, γR, φT] (the table prints φR before γL).
    pub fn exact(&self) -> (Vec<BigRational>, [BigRational; 4]) {
        let r = |s: &str| crate::lang::rational(s).expect("Table I value");
        let c: Vec<BigRational> = self.columns.iter().map(|s| r(s)).collect();
        let q = vec![
            c[0].clone(),
            c[1].clone(),
            c[2].clone(),
            c[3].clone(),
            c[5].clone(),
            c[4].clone(),
            c[6].clone(),
            c[7].clone(),
        ];
        (q, self.design.map(r))
    }

    /// The row as a point of the declared model in backend S.
    pub fn point<S: Scalar>(&self, ctx: &S::Ctx, tail: TailRule) -> TrexPoint<S> {
        let (q, d) = self.exact();
        TrexPoint {
            design: TrexDesign::from_array(d.map(|v| S::from_rational(&v, ctx))),
            q: q.iter().map(|v| S::from_rational(v, ctx)).collect(),
            tail,
        }
    }
}

/// The free variables of the f64 optimisation: every coordinate but x, then the design.
const FREE: usize = 11;

fn point_from_z<T: Scalar>(z: &[T], tail: TailRule) -> TrexPoint<T> {
    let mut q = vec![z[0].zero_like()];
    q.extend(z[..7].iter().cloned());
    TrexPoint {
        design: TrexDesign::from_array([z[7].clone(), z[8].clone(), z[9].clone(), z[10].clone()]),
        q,
        tail,
    }
}

/// The residual and its Jacobian with respect to `seeds` (indices into the point's
/// variables z = [y, θ, φL, γL, φR, γR, φT, r1, r2, lu, ll]).
fn residual_jacobian<S: Scalar>(
    z: &[S],
    seeds: &[usize],
    tail: TailRule,
) -> Result<([S; 3], Vec<Vec<S>>), LawError> {
    let n = seeds.len();
    let zd: Vec<Dual<S>> = z
        .iter()
        .enumerate()
        .map(|(i, v)| match seeds.iter().position(|&s| s == i) {
            Some(k) => Dual::var(v.clone(), k, n),
            None => Dual::constant(v.clone()),
        })
        .collect();
    let f = point_from_z(&zd, tail).residual()?;
    let values = [f[0].value.clone(), f[1].value.clone(), f[2].value.clone()];
    let jac = f.iter().map(|fi| fi.gradient(n)).collect();
    Ok((values, jac))
}

/// The result of the underdetermined Newton iteration (f64).
#[derive(Clone, Debug)]
pub struct NewtonRun {
    /// z = [y, θ, φL, γL, φR, γR, φT, r1, r2, lu, ll] at every iterate.
    pub iterates: Vec<Vec<f64>>,
    /// max |residual| at every iterate.
    pub residuals: Vec<f64>,
}

/// Minimum-norm Newton steps z ← z − Jᵀ(JJᵀ)⁻¹F on the 11 free variables, from `z0`,
/// until max |F| < `tol` or `max_steps`.
pub fn newton_min_norm(
    z0: &[f64],
    tail: TailRule,
    tol: f64,
    max_steps: usize,
) -> Result<NewtonRun, LawError> {
    let seeds: Vec<usize> = (0..FREE).collect();
    let mut z = z0.to_vec();
    let mut run = NewtonRun {
        iterates: vec![z.clone()],
        residuals: Vec::new(),
    };
    for _ in 0..=max_steps {
        let (f, j) = residual_jacobian(&z, &seeds, tail)?;
        let norm = f.iter().fold(0f64, |a, b| a.max(b.abs()));
        run.residuals.push(norm);
        if norm < tol || run.residuals.len() > max_steps {
            break;
        }
        let jjt: Vec<Vec<f64>> = (0..3)
            .map(|a| {
                (0..3)
                    .map(|b| (0..FREE).map(|k| j[a][k] * j[b][k]).sum())
                    .collect()
            })
            .collect();
        let w = solve(jjt, f.to_vec())?;
        for (k, zk) in z.iter_mut().enumerate() {
            *zk -= (0..3).map(|a| j[a][k] * w[a]).sum::<f64>();
        }
        run.iterates.push(z.clone());
    }
    Ok(run)
}

/// The square subsystem: unknowns y, φR, φT (indices 0, 4, 6 of z).
pub const SQUARE: [usize; 3] = [0, 4, 6];

/// The certified orthogonal point.
#[derive(Clone, Debug)]
pub struct Certified {
    /// The f64 Newton run from the Initial row.
    pub newton: NewtonRun,
    /// z with every variable but y, φR, φT fixed at the 6-decimal rational of the Newton
    /// point (those three: the MPFR Newton point).
    pub fixed: Vec<BigRational>,
    /// The Krawczyk box X for (y, φR, φT) and its image K(X).
    pub box_: [MpInterval; 3],
    pub krawczyk: [MpInterval; 3],
    /// K(X) inside the interior of X: a unique zero in X.
    pub proved: bool,
    /// The widest side of X.
    pub width: f64,
    /// The declared model evaluated over X (enclosures of its values at the zero).
    pub report: TrexReport<MpInterval>,
}

/// Rounds to 6 decimals, as an exact rational.
fn six_decimals(x: f64) -> BigRational {
    let n = (x * 1e6).round();
    BigRational::new(
        num_bigint::BigInt::from_f64(n).expect("finite"),
        1_000_000.into(),
    )
}

/// The optimisation of Sect. VII-B in the declared model, certified: Newton (f64, minimum
/// norm) from the Initial row; all but y, φR, φT fixed at 6 decimals; MPFR Newton on the
/// square system at `bits`; a Krawczyk step K(X) = m − C F(m) + (I − C J(X))(X − m) on the
/// box X = m ± `radius` in MPFR intervals.
pub fn certify_orthogonal(
    tail: TailRule,
    bits: u32,
    radius: &BigRational,
) -> Result<Certified, LawError> {
    let row = &table_i()[0];
    let (q, d) = row.exact();
    let z0: Vec<f64> = q[1..]
        .iter()
        .chain(d.iter())
        .map(|v| v.to_f64().unwrap_or(f64::NAN))
        .collect();
    let newton = newton_min_norm(&z0, tail, 1e-12, 50)?;
    let zf = newton.iterates.last().expect("one iterate").clone();
    let fixed: Vec<BigRational> = zf.iter().map(|&v| six_decimals(v)).collect();
    // MPFR Newton on (y, φR, φT)
    let mut z: Vec<Mpfr> = fixed
        .iter()
        .map(|v| Mpfr::from_rational(v, &bits))
        .collect();
    for _ in 0..40 {
        let (f, j) = residual_jacobian(&z, &SQUARE, tail)?;
        let step = solve(j, f.to_vec())?;
        let mut small = true;
        for (k, &i) in SQUARE.iter().enumerate() {
            z[i] = z[i].sub_r(&step[k]);
            small &= step[k].to_f64().abs() < 1e-60;
        }
        if small {
            break;
        }
    }
    let mut fixed = fixed;
    for &i in &SQUARE {
        fixed[i] =
            float_to_rat(&z[i].0).ok_or_else(|| LawError::Domain("MPFR Newton diverged".into()))?;
    }
    let ctx = bits;
    let iv = |v: &BigRational| MpInterval::from_rational(v, &ctx);
    let m: Vec<MpInterval> = fixed.iter().map(iv).collect();
    let mut xz = m.clone();
    let box_: [MpInterval; 3] = SQUARE.map(|i| {
        MpInterval::from_rational(&(&fixed[i] - radius), &ctx)
            .hull_with(&MpInterval::from_rational(&(&fixed[i] + radius), &ctx))
            .expect("same precision")
    });
    for (k, &i) in SQUARE.iter().enumerate() {
        xz[i] = box_[k].clone();
    }
    let fm = point_from_z(&m, tail).residual()?;
    let (_, jx) = residual_jacobian(&xz, &SQUARE, tail)?;
    // C ≈ J(m)⁻¹ in f64, entries exact rationals
    let (_, jm) = residual_jacobian(&zf, &SQUARE, tail)?;
    let c: Vec<Vec<MpInterval>> = {
        let mut cols = Vec::new();
        for e in 0..3 {
            let rhs: Vec<f64> = (0..3).map(|i| f64::from(u8::from(i == e))).collect();
            cols.push(solve(jm.clone(), rhs)?);
        }
        (0..3)
            .map(|i| {
                (0..3)
                    .map(|k| iv(&BigRational::from_float(cols[k][i]).unwrap_or_default()))
                    .collect()
            })
            .collect()
    };
    let zero = iv(&BigRational::default());
    let mut krawczyk = Vec::new();
    let mut proved = true;
    for i in 0..3 {
        let mut k = m[SQUARE[i]].clone();
        for l in 0..3 {
            k = k - &(c[i][l].clone() * &fm[l]);
        }
        for j in 0..3 {
            let mut a = if i == j {
                zero.one_like()
            } else {
                zero.clone()
            };
            for l in 0..3 {
                a = a - &(c[i][l].clone() * &jx[l][j]);
            }
            k = k + &(a * &(box_[j].clone() - &m[SQUARE[j]]));
        }
        proved &= k.lo() > box_[i].lo() && k.hi() < box_[i].hi();
        krawczyk.push(k);
    }
    let width = box_.iter().map(|b| b.width().to_f64()).fold(0f64, f64::max);
    let report = point_from_z(&xz, tail).report()?;
    Ok(Certified {
        newton,
        fixed,
        box_,
        krawczyk: krawczyk.try_into().expect("three"),
        proved,
        width,
        report,
    })
}

/// The names of z = [y, θ, φL, γL, φR, γR, φT, r1, r2, lu, ll].
pub const Z_NAMES: [&str; FREE] = [
    "y", "theta", "phi_l", "gamma_l", "phi_r", "gamma_r", "phi_t", "r1", "r2", "lu", "ll",
];
