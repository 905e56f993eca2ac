//! `impactkit penny impact`: one impact of the penny (Clark–Bloch Sect. V-B) on a wall, an
//! ellipse (35) or a boundary given by its gradient, through the three maps: P of
//! Theorem 3.1 ((5), printed as (28)–(29)), the elastic nonholonomic map (15) and the
//! plastic one (18).

use crate::arith::backend::{Backend, RunScalar};
use crate::arith::{Algebraic, Kind, Num, Quadratic, Scalar, Sign};
use crate::input::{self as inp, InputError};
use crate::law::LawError;
use crate::report::nums;
use crate::report::penny::{
    ExactCheck, ImpactReport, ImpactRow, LawRow, MomentumRow, PennyLaw, RunReport, SpreadReport,
};
use crate::report::penny_figure::TableFigure;
use crate::system::penny::{Boundary, End, Heading, Penny, PennyImpact, PennyState, TABLE_I};
use crate::system::penny_run::{Run, RunLaw, Stop, Table};
use crate::system::{input, SpecError};
use num_rational::BigRational;

/// How the table's boundary is given.
#[derive(Clone, Debug)]
pub enum BoundarySpec {
    /// `--wall "a*x+b*y=c"`: the table is the side a·x + b·y < c.
    Wall(String),
    /// `--ellipse "a,b"`: (35), the table inside.
    Ellipse(String),
    /// `--gradient "hx,hy"`: a general boundary, by the gradient of h at the point.
    Gradient(String),
}

/// How the heading is given.
#[derive(Clone, Debug)]
pub enum HeadingSpec {
    /// `--phi EXPR`: cos φ and sin φ through the backend (exact on the trigonometric table).
    Phi(String),
    /// `--heading "c,s"`: a point of the unit circle (checked).
    CosSin(String),
}

/// How the pre-impact velocity is given.
#[derive(Clone, Debug)]
pub enum VelocitySpec {
    /// `--rates "thetadot,phidot"`: rolling, ẋ and ẏ from (23).
    Rates(String),
    /// `--qdot "xdot,ydot,thetadot,phidot"` (checked to lie in Δ).
    Qdot(String),
}

/// One impact as the command line states it.
#[derive(Clone, Debug)]
pub struct ImpactSpec {
    /// m, R, I, J (`None`: Table I).
    pub params: [Option<String>; 4],
    pub heading: HeadingSpec,
    pub boundary: BoundarySpec,
    /// `--point "x,y"`: where the end meets the boundary.
    pub point: Option<String>,
    pub end: End,
    pub velocity: VelocitySpec,
    pub law: Option<PennyLaw>,
}

/// The boundary (if given by a formula), the end's point on it and the gradient.
type BoundaryAt<S> = (Option<Boundary<S>>, (S, S), (S, S));

const OPTIONS: [&str; 4] = ["--mass", "--radius", "--inertia", "--spin-inertia"];

/// The coefficients (a, b, c) of a wall "lhs = rhs" that is affine in x and y:
/// lhs − rhs = a·x + b·y − c, decided as a rational-function identity.
pub fn wall_coefficients(src: &str) -> Result<[BigRational; 3], InputError> {
    use crate::lang::parse_symbolic;
    let bad = |why: &str| InputError::new("--wall", why);
    let parts: Vec<&str> = src.split('=').collect();
    if parts.len() != 2 || parts.iter().any(|p| p.trim().is_empty()) {
        return Err(bad("write one equation a*x+b*y=c"));
    }
    let f = parse_symbolic(&format!("({}) - ({})", parts[0], parts[1]))
        .map_err(|e| InputError::from_eval("--wall", &e))?;
    if f.variables().iter().any(|v| v != "x" && v != "y") {
        return Err(bad("only the variables x and y may appear"));
    }
    let at = |x: i64, y: i64| -> Result<BigRational, InputError> {
        let env = [
            ("x".to_string(), BigRational::from_integer(x.into())),
            ("y".to_string(), BigRational::from_integer(y.into())),
        ];
        f.eval_rational(&env)
            .map_err(|e| InputError::new("--wall", e.to_string()))
    };
    let f0 = at(0, 0)?;
    let a = at(1, 0)? - &f0;
    let b = at(0, 1)? - &f0;
    let affine = parse_symbolic(&format!(
        "({})*x + ({})*y + ({})",
        crate::lang::show(&a),
        crate::lang::show(&b),
        crate::lang::show(&f0)
    ))
    .map_err(|e| InputError::from_eval("--wall", &e))?;
    if !affine.is_identical(&f) {
        return Err(bad("the wall must be a straight line a*x+b*y=c"));
    }
    if a == BigRational::from_integer(0.into()) && b == BigRational::from_integer(0.into()) {
        return Err(bad("a and b are both zero: not a line"));
    }
    Ok([a, b, -f0])
}

/// `x` vanishes: exactly on exact backends, within the enclosure on enclosures, to a
/// relative 1e-12 of `scale` in floating point.
fn vanishes<S: Scalar>(x: &S, scale: &S) -> bool {
    match S::kind() {
        Kind::Exact => x.sign() == Sign::Zero,
        Kind::Enclosure => matches!(x.sign(), Sign::Zero | Sign::Unknown),
        Kind::Float => x.to_f64().abs() <= 1e-12 * scale.to_f64().abs().max(1.0),
    }
}

fn two<S: Scalar>(src: &str, option: &str, ctx: &S::Ctx) -> Result<(S, S), SpecError> {
    let v = inp::list::<S>(src, option, ctx)?;
    match <[S; 2]>::try_from(v) {
        Ok([a, b]) => Ok((a, b)),
        Err(v) => Err(input(option, format!("need 2 values, got {}", v.len()))),
    }
}

fn law_domain(option: &str) -> impl Fn(LawError) -> SpecError + '_ {
    move |e| match e {
        LawError::Domain(m) => input(option, m),
        other => SpecError::Law(other),
    }
}

/// m, R, I, J from the options (`None`: Table I), checked positive.
fn penny_of<S: Scalar>(params: &[Option<String>; 4], ctx: &S::Ctx) -> Result<Penny<S>, SpecError> {
    let mut v = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let src = p.as_deref().unwrap_or(TABLE_I[i].1);
        v.push(inp::value::<S>(src, OPTIONS[i], ctx)?);
    }
    let [mass, radius, inertia, spin_inertia]: [S; 4] = v
        .try_into()
        .map_err(|_| input("--mass", "four parameters"))?;
    let p = Penny {
        mass,
        radius,
        inertia,
        spin_inertia,
    };
    p.check().map_err(|(name, e)| match e {
        LawError::Domain(m) => input(&format!("--{name}"), m),
        other => SpecError::Law(other),
    })?;
    Ok(p)
}

impl HeadingSpec {
    /// (cos φ, sin φ); an angle given to `phi_option` (`--phi`, `--phi0`).
    fn eval<S: Scalar>(&self, phi_option: &str, ctx: &S::Ctx) -> Result<Heading<S>, SpecError> {
        let (cos, sin) = match self {
            HeadingSpec::Phi(src) => {
                let e = |f: &str| {
                    crate::lang::eval_str::<S>(&format!("{f}({src})"), ctx)
                        .map_err(|e| InputError::from_eval(phi_option, &e))
                };
                (e("cos")?, e("sin")?)
            }
            HeadingSpec::CosSin(src) => {
                let (c, s) = two::<S>(src, "--heading", ctx)?;
                let norm = c.square() + &s.square() - &c.one_like();
                if !vanishes(&norm, &c.one_like()) {
                    return Err(input("--heading", "not a unit vector: c^2 + s^2 != 1"));
                }
                (c, s)
            }
        };
        Ok(Heading { cos, sin })
    }
}

impl ImpactSpec {
    fn penny<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Penny<S>, SpecError> {
        penny_of(&self.params, ctx)
    }

    fn heading<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Heading<S>, SpecError> {
        self.heading.eval("--phi", ctx)
    }

    /// The boundary (if given by a formula), the end's point on it and the gradient.
    fn boundary<S: Scalar>(&self, ctx: &S::Ctx) -> Result<BoundaryAt<S>, SpecError> {
        let point = |ctx: &S::Ctx| -> Result<Option<(S, S)>, SpecError> {
            self.point
                .as_deref()
                .map(|p| two::<S>(p, "--point", ctx))
                .transpose()
        };
        let (boundary, point) = match &self.boundary {
            BoundarySpec::Wall(src) => {
                let [a, b, c] = wall_coefficients(src)?;
                let lift = |q: &BigRational| inp::value::<S>(&crate::lang::show(q), "--wall", ctx);
                let (a, b, c) = (lift(&a)?, lift(&b)?, lift(&c)?);
                let point = match point(ctx)? {
                    Some(p) => p,
                    None => {
                        // the foot of the perpendicular from the origin: c(a, b)/(a² + b²)
                        let n = (a.square() + &b.square())
                            .recip()
                            .map_err(|e| InputError::from_arith("--wall", &e))?;
                        (c.mul_r(&a).mul_r(&n), c.mul_r(&b).mul_r(&n))
                    }
                };
                (Boundary::Line { a, b, c }, point)
            }
            BoundarySpec::Ellipse(src) => {
                let (a, b) = two::<S>(src, "--ellipse", ctx)?;
                for x in [&a, &b] {
                    if !x.sign().is_positive() {
                        return Err(input("--ellipse", "the semi-axes must be positive"));
                    }
                }
                let p = point(ctx)?.ok_or_else(|| input("--point", "needed with --ellipse"))?;
                (Boundary::Ellipse { a, b }, p)
            }
            BoundarySpec::Gradient(src) => {
                let g = two::<S>(src, "--gradient", ctx)?;
                let p = point(ctx)?.unwrap_or_else(|| (g.0.zero_like(), g.0.zero_like()));
                return Ok((None, p, g));
            }
        };
        let h = boundary
            .h(&point.0, &point.1)
            .map_err(law_domain("--point"))?;
        if !vanishes(&h, &h.one_like()) {
            return Err(input(
                "--point",
                "not on the table's boundary (h(x, y) != 0)",
            ));
        }
        let grad = boundary
            .gradient(&point.0, &point.1)
            .map_err(law_domain("--point"))?;
        Ok((Some(boundary), point, grad))
    }

    fn velocity<S: Scalar>(
        &self,
        penny: &Penny<S>,
        h: &Heading<S>,
        ctx: &S::Ctx,
    ) -> Result<Vec<S>, SpecError> {
        match &self.velocity {
            VelocitySpec::Rates(src) => {
                let (td, pd) = two::<S>(src, "--rates", ctx)?;
                Ok(penny.rolling(h, &td, &pd))
            }
            VelocitySpec::Qdot(src) => {
                let v = inp::list::<S>(src, "--qdot", ctx)?;
                if v.len() != 4 {
                    return Err(input("--qdot", format!("need 4 values, got {}", v.len())));
                }
                let rolling = penny.rolling(h, &v[2], &v[3]);
                let scale = v[0].one_like() + &v[0].square() + &v[1].square();
                for k in 0..2 {
                    if !vanishes(&(v[k].clone() - &rolling[k]), &scale) {
                        return Err(input(
                            "--qdot",
                            "not in the constraint distribution: (23) needs xdot = R thetadot cos(phi), ydot = R thetadot sin(phi)",
                        ));
                    }
                }
                // on enclosures, the velocity is taken in Δ (the rolling one)
                Ok(if S::kind() == Kind::Exact { v } else { rolling })
            }
        }
    }

    fn run<S: Scalar>(&self, ctx: &S::Ctx, arith: String) -> Result<ImpactReport, SpecError> {
        let penny = self.penny::<S>(ctx)?;
        let heading = self.heading::<S>(ctx)?;
        let (_, point, grad) = self.boundary::<S>(ctx)?;
        let v = self.velocity(&penny, &heading, ctx)?;
        let all: Vec<&S> = [
            &penny.mass,
            &penny.radius,
            &penny.inertia,
            &penny.spin_inertia,
            &heading.cos,
            &heading.sin,
            &point.0,
            &point.1,
            &grad.0,
            &grad.1,
        ]
        .into_iter()
        .chain(&v)
        .collect();
        crate::arith::check_compatible(&all)
            .map_err(|e| input("--phi/--heading", e.to_string()))?;
        let option = match self.velocity {
            VelocitySpec::Rates(_) => "--rates",
            VelocitySpec::Qdot(_) => "--qdot",
        };
        let maps = penny
            .impact_maps(&heading, self.end, &grad, &v)
            .map_err(|e| match e {
                LawError::Domain(m) if m.contains("gradient") || m.contains("dh") => {
                    input("--wall/--ellipse/--gradient", m)
                }
                LawError::Domain(m) => input(option, m),
                other => SpecError::Law(other),
            })?;
        let nh = penny
            .impact(&heading, self.end, &grad)
            .map_err(SpecError::Law)?;
        let tangent = nh.tangent_basis().map_err(SpecError::Law)?;
        let position = penny.contact_point(&point, &heading, self.end);
        let mut r = report(
            arith,
            &penny,
            &heading,
            self.end,
            [&point, &position, &grad],
            &nh.dh,
            &tangent,
            &maps,
            self.law,
            &self.symmetries(),
        );
        // the fixed inputs as given (exactly), not an enclosure or rounding of them
        if let (Ok(p), Ok(h)) = (self.penny::<Algebraic>(&()), self.heading::<Algebraic>(&())) {
            r.mass = p.mass.num();
            r.radius = p.radius.num();
            r.inertia = p.inertia.num();
            r.spin_inertia = p.spin_inertia.num();
            r.heading = nums(&[h.cos, h.sin]);
        }
        Ok(r)
    }

    /// The coordinates that neither L (22), the constraints (24) nor H depend on: θ, and
    /// x (y) for a wall b·y = c (a·x = c). Only the gradient of a general boundary is
    /// known, so only θ there.
    fn symmetries(&self) -> Vec<(usize, &'static str)> {
        let mut out = Vec::new();
        if let BoundarySpec::Wall(src) = &self.boundary {
            if let Ok([a, b, _]) = wall_coefficients(src) {
                let zero = BigRational::from_integer(0.into());
                if a == zero {
                    out.push((0, "x"));
                }
                if b == zero {
                    out.push((1, "y"));
                }
            }
        }
        out.push((2, "theta"));
        out
    }

    /// The report on `backend`.
    pub fn report(&self, backend: Backend) -> Result<ImpactReport, SpecError> {
        struct Job<'a>(&'a ImpactSpec, Backend);
        impl RunScalar for Job<'_> {
            type Out = Result<ImpactReport, SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                self.0.run::<S>(ctx, self.1.to_string())
            }
        }
        backend.run(Job(self, backend))
    }
}

/// a = b decided; `None` when undecided: an enclosure of a − b that contains 0, or, in
/// rounded arithmetic, a relative difference below 2⁻²⁰ that is not 0 (rounding cannot
/// tell).
fn equal<S: Scalar>(a: &S, b: &S) -> Option<bool> {
    let d = a.clone() - b;
    if S::kind() == Kind::Float && d.sign() != Sign::Zero {
        let size = a.to_f64().abs().max(b.to_f64().abs());
        return (d.to_f64().abs() > size * 2f64.powi(-20)).then_some(false);
    }
    match d.sign() {
        Sign::Zero => Some(true),
        Sign::Positive | Sign::Negative => Some(false),
        Sign::Unknown => None,
    }
}

#[allow(clippy::too_many_arguments)]
fn report<S: Scalar>(
    arith: String,
    penny: &Penny<S>,
    heading: &Heading<S>,
    end: End,
    [point, position, grad]: [&(S, S); 3],
    dh: &[S],
    tangent: &[Vec<S>],
    maps: &PennyImpact<S>,
    only: Option<PennyLaw>,
    symmetries: &[(usize, &'static str)],
) -> ImpactReport {
    let before = &maps.before;
    let mass = [
        penny.mass.clone(),
        penny.mass.clone(),
        penny.inertia.clone(),
        penny.spin_inertia.clone(),
    ];
    let c = &maps.conservation;
    let first = |i: usize| c[i].invariants.first().map(|x| x.0.num());
    let row = |law: PennyLaw, i: usize, qdot: &[S], alpha: Option<&S>| LawRow {
        law,
        citation: law.citation(),
        qdot: nums(qdot),
        alpha: alpha.map(Scalar::num),
        lambda: None,
        c: None,
        energy: c[i].energy.1.num(),
        energy_conserved: equal(&c[i].energy.0, &c[i].energy.1),
        normal_rate: crate::linalg::dot(dh.iter(), qdot.iter()).num(),
        invariant: c[i].invariants.first().map(|x| x.1.num()),
        invariant_conserved: c[i].invariants.first().and_then(|x| equal(&x.0, &x.1)),
        in_distribution: c[i].in_distribution,
        admissible: c[i].admissible,
        theta_dot_unchanged: equal(&before[2], &qdot[2]),
        momentum: symmetries
            .iter()
            .map(|&(k, name)| {
                let (b, a) = (mass[k].mul_r(&before[k]), mass[k].mul_r(&qdot[k]));
                MomentumRow {
                    coordinate: name,
                    conserved: equal(&b, &a),
                    before: b.num(),
                    after: a.num(),
                }
            })
            .collect(),
    };
    let mut laws = Vec::new();
    if only.is_none() || only == Some(PennyLaw::P) {
        let mut r = row(PennyLaw::P, 0, &maps.p.0, Some(&maps.p.1));
        r.c = Some(maps.p.1.num());
        laws.push(r);
    }
    if only.is_none() || only == Some(PennyLaw::Elastic) {
        let mut r = row(
            PennyLaw::Elastic,
            1,
            &maps.elastic.velocity,
            Some(&maps.elastic.alpha),
        );
        r.lambda = Some(nums(&maps.elastic.lambda));
        laws.push(r);
    }
    if only.is_none() || only == Some(PennyLaw::Plastic) {
        laws.push(row(PennyLaw::Plastic, 2, &maps.plastic, None));
    }
    ImpactReport {
        arith,
        mass: penny.mass.num(),
        radius: penny.radius.num(),
        inertia: penny.inertia.num(),
        spin_inertia: penny.spin_inertia.num(),
        heading: nums(&[heading.cos.clone(), heading.sin.clone()]),
        end,
        point: nums(&[point.0.clone(), point.1.clone()]),
        position: nums(&[position.0.clone(), position.1.clone()]),
        gradient: nums(&[grad.0.clone(), grad.1.clone()]),
        dh: nums(dh),
        qdot: nums(before),
        normal_rate: maps.normal_rate.num(),
        energy: c[0].energy.0.num(),
        tangent: tangent.first().map(|t| nums(t)),
        invariant: first(0),
        laws,
    }
}

/// The table of `penny run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableKind {
    /// (35) with Table I's a = 0.15, b = 0.20 by default.
    Ellipse,
    /// a = b = 0.20 by default.
    Circle,
}

/// A run on the table as the command line states it (defaults: Table I and the
/// initial data of Sect. VI-A).
#[derive(Clone, Debug)]
///
/// # Example
///
/// ```
/// use impactkit::arith::backend::Backend;
/// use impactkit::system::penny_run::RunLaw;
/// use impactkit::commands::penny::{RunSpec, TableKind};
/// let spec = RunSpec { table: TableKind::Circle, a: None, b: None, params: [None, None, None, None], law: RunLaw::Elastic, impacts: 3, initial: [None, None, None, None], rates: None };
/// let (report, _) = spec.report(Backend::MpInterval(128), false).unwrap();
/// assert_eq!(report.impacts.len(), 3);
/// ```
pub struct RunSpec {
    pub table: TableKind,
    pub a: Option<String>,
    pub b: Option<String>,
    /// m, R, I, J (`None`: Table I).
    pub params: [Option<String>; 4],
    pub law: RunLaw,
    pub impacts: usize,
    /// x₀, y₀, θ₀, φ₀ (`None`: 0, 0, 0, pi/2).
    pub initial: [Option<String>; 4],
    /// "θ̇₀,φ̇₀" (`None`: 10, 0.2).
    pub rates: Option<String>,
}

/// Most impacts of one run.
pub const MAX_IMPACTS: usize = 10_000;

fn width(n: &crate::arith::Num) -> f64 {
    match n {
        crate::arith::Num::Enclosure { lo, hi } => (hi.clone() - lo).to_f64(),
        _ => 0.0,
    }
}

/// `x` (on the run's backend) contains the exact value `q`; rounded backends: agree to
/// a relative 1e-9.
fn contains<S: Scalar, Q: Scalar>(x: &S, q: &Q) -> bool {
    match (x.rational_bounds(), q.rational_bounds()) {
        (Some((xl, xh)), Some((ql, qh))) if S::kind() == Kind::Enclosure => xl <= ql && qh <= xh,
        _ => (x.to_f64() - q.to_f64()).abs() <= 1e-9 * q.to_f64().abs().max(1e-30),
    }
}

impl RunSpec {
    fn table<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Table<S>, SpecError> {
        let penny = penny_of::<S>(&self.params, ctx)?;
        let (da, db) = match self.table {
            TableKind::Ellipse => ("3/20", "1/5"),
            TableKind::Circle => ("1/5", "1/5"),
        };
        let a = inp::value::<S>(self.a.as_deref().unwrap_or(da), "--a", ctx)?;
        let b = match (self.table, &self.b) {
            (TableKind::Circle, None) => a.clone(),
            _ => inp::value::<S>(self.b.as_deref().unwrap_or(db), "--b", ctx)?,
        };
        for (x, o) in [(&a, "--a"), (&b, "--b")] {
            if x.sign() != Sign::Positive {
                return Err(input(o, "the semi-axes must be positive"));
            }
        }
        if self.table == TableKind::Circle && !vanishes(&(a.clone() - &b), &a) {
            return Err(input(
                "--b",
                "a circular table needs a = b (use --table ellipse)",
            ));
        }
        Ok(Table {
            penny,
            boundary: Boundary::Ellipse { a, b },
            law: self.law,
        })
    }

    fn start<S: Scalar>(&self, table: &Table<S>, ctx: &S::Ctx) -> Result<PennyState<S>, SpecError> {
        let names = ["--x0", "--y0", "--theta0", "--phi0"];
        let defaults = ["0", "0", "0", "pi/2"];
        let mut v = Vec::new();
        for i in 0..3 {
            let src = self.initial[i].as_deref().unwrap_or(defaults[i]);
            v.push(inp::value::<S>(src, names[i], ctx)?);
        }
        let phi = self.initial[3].as_deref().unwrap_or(defaults[3]);
        let heading = HeadingSpec::Phi(phi.into()).eval::<S>("--phi0", ctx)?;
        let (thetadot, phidot) =
            two::<S>(self.rates.as_deref().unwrap_or("10,1/5"), "--rates", ctx)?;
        // the start and the table must lie in one field (Q(√3) from φ₀ = 2π/3 and Q(√5)
        // from a rate 1/√5 cannot meet in `quadratic`): checked before they meet
        let p = &table.penny;
        let mut all: Vec<&S> = v.iter().collect();
        all.extend([&heading.cos, &heading.sin, &thetadot, &phidot]);
        all.extend([&p.mass, &p.radius, &p.inertia, &p.spin_inertia]);
        if let Boundary::Ellipse { a, b } = &table.boundary {
            all.extend([a, b]);
        }
        crate::arith::check_compatible(&all)
            .map_err(|e| input("--x0/--y0/--theta0/--phi0/--rates", e.to_string()))?;
        let [x, y, theta]: [S; 3] = v.try_into().map_err(|_| input("--x0", "three values"))?;
        let s = PennyState {
            x,
            y,
            theta,
            heading,
            thetadot,
            phidot,
        };
        for end in [End::Front, End::Back] {
            let (ex, ey) = table.penny.end_point(&s.x, &s.y, &s.heading, end);
            let h = table.boundary.h(&ex, &ey).map_err(SpecError::Law)?;
            if h.sign() != Sign::Negative {
                return Err(input(
                    "--x0/--y0",
                    format!("the penny's {} end is not inside the table", end.name()),
                ));
            }
        }
        Ok(s)
    }

    /// The run's fixed inputs as reports show them: a, b, m, R, I, J, then x₀, y₀, θ₀,
    /// cos φ₀, sin φ₀, θ̇₀, φ̇₀.
    fn inputs_of<S: Scalar>(&self, table: &Table<S>, start: &PennyState<S>) -> Vec<Num> {
        let Boundary::Ellipse { a, b } = &table.boundary else {
            unreachable!("run tables are ellipses")
        };
        let p = &table.penny;
        nums(&[
            a.clone(),
            b.clone(),
            p.mass.clone(),
            p.radius.clone(),
            p.inertia.clone(),
            p.spin_inertia.clone(),
            start.x.clone(),
            start.y.clone(),
            start.theta.clone(),
            start.heading.cos.clone(),
            start.heading.sin.clone(),
            start.thetadot.clone(),
            start.phidot.clone(),
        ])
    }

    /// The fixed inputs evaluated exactly (the `algebraic` backend), so that an
    /// enclosure or floating-point run prints `a = 1/5` as given, not an enclosure of it;
    /// `None` where an input is not algebraic.
    fn exact_inputs(&self) -> Option<Vec<Num>> {
        let table = self.table::<Algebraic>(&()).ok()?;
        let start = self.start::<Algebraic>(&table, &()).ok()?;
        Some(self.inputs_of(&table, &start))
    }

    fn exact_first<S: Scalar>(&self, run: &Run<S>) -> Option<ExactCheck> {
        if self.table != TableKind::Circle || S::kind() == Kind::Exact {
            return None;
        }
        let table = self.table::<Quadratic>(&()).ok()?;
        let start = self.start::<Quadratic>(&table, &()).ok()?;
        let exact = table.run(&start, 1).ok()?;
        let e = exact.impacts.first()?;
        let f = run.impacts.first()?;
        let time_ok = match (&e.time, f.time_f64) {
            (crate::arith::Num::Enclosure { lo, hi }, _) => match f.before.x.rational_bounds() {
                Some(_) if S::kind() == Kind::Enclosure => {
                    // the run's time is an enclosure [tl, th] of the same root
                    let (Some(el), Some(eh)) = (
                        crate::arith::float_to_rat(lo),
                        crate::arith::float_to_rat(hi),
                    ) else {
                        return None;
                    };
                    match &f.time {
                        crate::arith::Num::Enclosure { lo, hi } => {
                            let tl = crate::arith::float_to_rat(lo)?;
                            let th = crate::arith::float_to_rat(hi)?;
                            // both enclose the one root: they must overlap
                            tl <= eh && el <= th
                        }
                        _ => false,
                    }
                }
                _ => (f.time_f64 - e.time_f64).abs() <= 1e-9 * e.time_f64.abs(),
            },
            _ => false,
        };
        let mut ok = time_ok && f.end == e.end;
        ok &= contains(&f.point.0, &e.point.0) && contains(&f.point.1, &e.point.1);
        for (x, q) in f.qdot.1.iter().zip(&e.qdot.1) {
            ok &= contains(x, q);
        }
        Some(ExactCheck {
            end: e.end,
            time: e.time.clone(),
            point: nums(&[e.point.0.clone(), e.point.1.clone()]),
            qdot_after: nums(&e.qdot.1),
            contained: ok,
        })
    }

    /// Figs. 1–4: the contact point's path (the flow (26) in f64 between the run's
    /// impacts, drawing only) and the impact points.
    fn figure<S: Scalar>(&self, table: &Table<S>, run: &Run<S>) -> TableFigure {
        let f = |x: &S| x.to_f64();
        let pf = table.penny.map(f);
        let state = |s: &PennyState<S>| s.map(f);
        let mut legs = Vec::new();
        let mut from = state(&run.start);
        let mut t0 = 0.0;
        for imp in &run.impacts {
            let dt = imp.time_f64 - t0;
            let leg: Vec<(f64, f64)> = (0..=200)
                .filter_map(|k| {
                    let s = pf.flow(&from, &(dt * f64::from(k) / 200.0)).ok()?;
                    Some((s.x, s.y))
                })
                .collect();
            legs.push(leg);
            from = state(&imp.after);
            t0 = imp.time_f64;
        }
        let (a, b) = match &table.boundary {
            Boundary::Ellipse { a, b } => (f(a), f(b)),
            Boundary::Line { .. } => (1.0, 1.0),
        };
        let shape = if self.table == TableKind::Circle {
            "circular"
        } else {
            "elliptical"
        };
        let law = match self.law {
            RunLaw::Elastic => "elastic",
            RunLaw::Plastic => "plastic",
        };
        TableFigure {
            clouds: Vec::new(),
            title: format!(
                "The contact point's path and the first {} impacts ({law}) on the {shape} table, a = {a} m, b = {b} m",
                run.impacts.len()
            ),
            a,
            b,
            legs,
            impacts: run
                .impacts
                .iter()
                .map(|m| (f(&m.point.0), f(&m.point.1), m.end == End::Front))
                .collect(),
        }
    }

    fn run<S: Scalar>(
        &self,
        ctx: &S::Ctx,
        arith: String,
        figure: bool,
    ) -> Result<(RunReport, Option<TableFigure>), SpecError> {
        if self.impacts == 0 || self.impacts > MAX_IMPACTS {
            return Err(input("--impacts", format!("must lie in 1..={MAX_IMPACTS}")));
        }
        let table = self.table::<S>(ctx)?;
        let start = self.start::<S>(&table, ctx)?;
        // a Gram matrix singular only in rounding names the parameters (issue 63, D12)
        let run = table.run(&start, self.impacts).map_err(|e| match e {
            LawError::Domain(m) if m.contains("linearly dependent") => input(
                "--mass/--radius/--inertia/--spin-inertia",
                format!("{m} in this arithmetic (too badly scaled for it; exact or mpi:BITS holds them)"),
            ),
            other => SpecError::Law(other),
        })?;
        let fig = figure.then(|| self.figure(&table, &run));
        let rows: Vec<ImpactRow> = run
            .impacts
            .iter()
            .enumerate()
            .map(|(i, m)| ImpactRow {
                index: i + 1,
                time: m.time.clone(),
                end: m.end,
                point: nums(&[m.point.0.clone(), m.point.1.clone()]),
                position: vec![m.before.x.num(), m.before.y.num(), m.theta_num.clone()],
                heading: nums(&[m.before.heading.cos.clone(), m.before.heading.sin.clone()]),
                qdot_before: nums(&m.qdot.0),
                qdot_after: nums(&m.qdot.1),
                energy: nums(&[m.energy.0.clone(), m.energy.1.clone()]),
                normal_rate: nums(&[m.normal_rate.0.clone(), m.normal_rate.1.clone()]),
                sensitivity: m.sensitivity,
            })
            .collect();
        let max_width = (S::kind() == Kind::Enclosure).then(|| {
            rows.iter()
                .flat_map(|r| {
                    std::iter::once(&r.time)
                        .chain(&r.point)
                        .chain(&r.qdot_after)
                })
                .map(width)
                .fold(0.0, f64::max)
        });
        let inputs = self
            .exact_inputs()
            .unwrap_or_else(|| self.inputs_of(&table, &start));
        Ok((
            RunReport {
                arith,
                table: match self.table {
                    TableKind::Ellipse => "ellipse".into(),
                    TableKind::Circle => "circle".into(),
                },
                a: inputs[0].clone(),
                b: inputs[1].clone(),
                law: self.law,
                events: match S::kind() {
                    Kind::Enclosure => "certified",
                    Kind::Float => "sampled",
                    Kind::Exact => "algebraic",
                },
                mass: inputs[2].clone(),
                radius: inputs[3].clone(),
                inertia: inputs[4].clone(),
                spin_inertia: inputs[5].clone(),
                initial: inputs[6..].to_vec(),
                impacts: rows,
                stop: run.stop.clone(),
                max_width,
                exact_first_impact: self.exact_first(&run),
            },
            fig,
        ))
    }

    /// The report on `backend`, and the figure (Figs. 1–4) when asked for.
    pub fn report(
        &self,
        backend: Backend,
        figure: bool,
    ) -> Result<(RunReport, Option<TableFigure>), SpecError> {
        precision_work(backend, self.impacts as f64, "--impacts")?;
        struct Job<'a>(&'a RunSpec, Backend, bool);
        impl RunScalar for Job<'_> {
            type Out = Result<(RunReport, Option<TableFigure>), SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                self.0.run::<S>(ctx, self.1.to_string(), self.2)
            }
        }
        backend.run(Job(self, backend, figure))
    }
}

/// Fig. 5 made deterministic: the runs of Sect. VI-B, θ₀ and φ̇₀ moved by a grid of
/// offsets in (−0.005, 0.005) (√runs per axis, centred), and where each penny is at the
/// given times.
#[derive(Clone, Debug)]
pub struct SpreadSpec {
    pub run: RunSpec,
    /// Number of runs: a square, 1..=400.
    pub runs: usize,
    /// Times "t1,t2,…" (seconds, at most 8).
    pub times: String,
}

/// The offsets of run `i` of `n` (n = k²): (δθ₀, δφ̇₀) on a k×k grid of step 0.009/(k−1)
/// over [−0.0045, 0.0045].
fn offsets(i: usize, k: usize) -> (BigRational, BigRational) {
    let at = |j: usize| {
        if k == 1 {
            BigRational::from_integer(0.into())
        } else {
            BigRational::new(
                (9 * (2 * j as i64 - (k as i64 - 1))).into(),
                (4000 * (k as i64 - 1)).into(),
            )
        }
    };
    (at(i / k), at(i % k))
}

impl SpreadSpec {
    fn positions<S: Scalar>(
        &self,
        ctx: &S::Ctx,
        times: &[f64],
    ) -> Result<(SpreadReport, TableFigure), SpecError> {
        let k = (self.runs as f64).sqrt().round() as usize;
        if k * k != self.runs || !(1..=400).contains(&self.runs) {
            return Err(input(
                "--runs",
                "must be a square number of runs in 1..=400",
            ));
        }
        let table = self.run.table::<S>(ctx)?;
        let base = self.run.start::<S>(&table, ctx)?;
        let tmax = times.iter().copied().fold(0.0, f64::max);
        let mut clouds: Vec<Vec<(f64, f64)>> = vec![Vec::new(); times.len()];
        let mut stopped = 0usize;
        for i in 0..self.runs {
            let (dt, dp) = offsets(i, k);
            let mut s = base.clone();
            s.theta = s.theta.clone() + &s.theta.lift(&dt);
            s.phidot = s.phidot.clone() + &s.phidot.lift(&dp);
            let run = table
                .run_until(&s, MAX_IMPACTS, tmax)
                .map_err(SpecError::Law)?;
            let f = |x: &S| x.to_f64();
            let pf = table.penny.map(f);
            let to_f = |s: &PennyState<S>| s.map(f);
            let reached = run.impacts.last().map_or(0.0, |m| m.time_f64);
            if run.stop != Stop::Done && reached < tmax {
                stopped += 1;
            }
            for (ti, &t) in times.iter().enumerate() {
                let (from, t0) = match run.impacts.iter().rev().find(|m| m.time_f64 <= t) {
                    Some(m) => (to_f(&m.after), m.time_f64),
                    None => (to_f(&run.start), 0.0),
                };
                if run.stop != Stop::Done && t > reached {
                    continue;
                }
                if let Ok(p) = pf.flow(&from, &(t - t0)) {
                    clouds[ti].push((p.x, p.y));
                }
            }
        }
        let spread: Vec<f64> = clouds
            .iter()
            .map(|c| {
                let mut d: f64 = 0.0;
                for a in c {
                    for b in c {
                        d = d.max(((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt());
                    }
                }
                d
            })
            .collect();
        let (a, b) = match &table.boundary {
            Boundary::Ellipse { a, b } => (a.to_f64(), b.to_f64()),
            Boundary::Line { .. } => (1.0, 1.0),
        };
        let fig = TableFigure {
            title: format!(
                "Where {} pennies are at each time, θ₀ and φ̇₀ moved by less than 0.005",
                self.runs
            ),
            a,
            b,
            legs: Vec::new(),
            impacts: Vec::new(),
            clouds: times
                .iter()
                .zip(&clouds)
                .map(|(t, c)| (format!("t = {t} s"), c.clone()))
                .collect(),
        };
        Ok((
            SpreadReport {
                runs: self.runs,
                times: times.to_vec(),
                diameters: spread,
                stopped_early: stopped,
                positions: clouds,
            },
            fig,
        ))
    }

    /// The report (positions in f64, drawing data) on `backend`.
    pub fn report(&self, backend: Backend) -> Result<(SpreadReport, TableFigure), SpecError> {
        let times: Vec<f64> = crate::lang::split_list(&self.times)
            .iter()
            .map(|t| {
                crate::lang::rational(t)
                    .ok()
                    .and_then(|q| num_traits::ToPrimitive::to_f64(&q))
                    .filter(|x| x.is_finite() && *x >= 0.0 && *x <= 1.0e4)
                    .ok_or_else(|| input("--times", "times are rationals in [0, 10000]"))
            })
            .collect::<Result<_, _>>()?;
        if times.is_empty() || times.len() > 8 {
            return Err(input("--times", "give 1 to 8 times"));
        }
        let horizon = times.iter().copied().fold(1.0, f64::max);
        // a run's unit of time costs about twice an impact of `penny run`
        precision_work(backend, 2.0 * self.runs as f64 * horizon, "--runs/--times")?;
        struct Job<'a>(&'a SpreadSpec, Vec<f64>);
        impl RunScalar for Job<'_> {
            type Out = Result<(SpreadReport, TableFigure), SpecError>;
            fn run<S: Scalar>(self, ctx: &S::Ctx) -> Self::Out {
                self.0.positions::<S>(ctx, &self.1)
            }
        }
        backend.run(Job(self, times))
    }
}

/// Largest MPFR precision of the penny's runs (`penny run`, `penny spread`): the cost of
/// isolating each flight's end grows with it (20 impacts take 0.8 s at 128 bits, 12 s at
/// 1,024 on a 2-core machine).
pub const MAX_PENNY_BITS: u32 = 1024;

/// Largest work of one penny command in MPFR arithmetic: impacts (`penny run`) or 2 × runs
/// × the latest time (`penny spread`), times (bits/128)²; at most about 16 s on a 2-core
/// machine.
pub const MAX_PENNY_WORK: f64 = 1500.0;

/// Refuses (exit 2) a precision or an amount of work of MPFR arithmetic past the penny's
/// bounds: a deterministic work bound, checked before the run.
fn precision_work(backend: Backend, count: f64, option: &str) -> Result<(), SpecError> {
    let (Backend::Mpfr(bits) | Backend::MpInterval(bits)) = backend else {
        return Ok(());
    };
    if bits > MAX_PENNY_BITS {
        return Err(input(
            "--arith",
            format!("{backend}: the penny runs take at most {MAX_PENNY_BITS} bits"),
        ));
    }
    let work = count * (f64::from(bits.max(128)) / 128.0).powi(2);
    if work > MAX_PENNY_WORK {
        return Err(input(
            option,
            format!(
                "{count} × ({bits}/128)² = {work:.0} work units with {backend}, more than {MAX_PENNY_WORK} (lower the count or the precision, or use f64)"
            ),
        ));
    }
    Ok(())
}
