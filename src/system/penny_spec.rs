//! `impactkit penny impact`: one impact of the penny (Clark–Bloch Sect. V-B) on a wall, an
//! ellipse (35) or a boundary given by its gradient, through the three maps: P of
//! Theorem 3.1 ((5), printed as (28)–(29)), the elastic nonholonomic map (15) and the
//! plastic one (18).

use super::penny::{Boundary, End, Heading, Penny, PennyImpact, TABLE_I};
use super::{input, SpecError};
use crate::arith::backend::{Backend, RunScalar};
use crate::arith::{Kind, Scalar, Sign};
use crate::input::{self as inp, InputError};
use crate::law::LawError;
use crate::report::penny::{ImpactReport, LawRow, PennyLaw};
use crate::report::nums;
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

impl ImpactSpec {
    fn penny<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Penny<S>, SpecError> {
        let mut v = Vec::new();
        for (i, p) in self.params.iter().enumerate() {
            let src = p.as_deref().unwrap_or(TABLE_I[i].1);
            v.push(inp::value::<S>(src, OPTIONS[i], ctx)?);
        }
        let [mass, radius, inertia, spin_inertia]: [S; 4] =
            v.try_into().map_err(|_| input("--mass", "four parameters"))?;
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

    fn heading<S: Scalar>(&self, ctx: &S::Ctx) -> Result<Heading<S>, SpecError> {
        let (cos, sin) = match &self.heading {
            HeadingSpec::Phi(src) => {
                let e = |f: &str| {
                    crate::lang::eval_str::<S>(&format!("{f}({src})"), ctx)
                        .map_err(|e| InputError::from_eval("--phi", &e))
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

    /// The boundary (if given by a formula), the end's point on it and the gradient.
    fn boundary<S: Scalar>(
        &self,
        ctx: &S::Ctx,
    ) -> Result<(Option<Boundary<S>>, (S, S), (S, S)), SpecError> {
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
                        let n = (a.square() + &b.square()).recip().map_err(|e| {
                            InputError::from_arith("--wall", &e)
                        })?;
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
                let p = point(ctx)?
                    .ok_or_else(|| input("--point", "needed with --ellipse"))?;
                (Boundary::Ellipse { a, b }, p)
            }
            BoundarySpec::Gradient(src) => {
                let g = two::<S>(src, "--gradient", ctx)?;
                let p = point(ctx)?.unwrap_or_else(|| (g.0.zero_like(), g.0.zero_like()));
                return Ok((None, p, g));
            }
        };
        let h = boundary.h(&point.0, &point.1).map_err(law_domain("--point"))?;
        if !vanishes(&h, &h.one_like()) {
            return Err(input("--point", "not on the table's boundary (h(x, y) != 0)"));
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
        crate::arith::check_compatible(&all).map_err(|e| input("--phi/--heading", e.to_string()))?;
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
        Ok(report(
            arith,
            &penny,
            &heading,
            self.end,
            (&point, &position, &grad),
            &nh.dh,
            &tangent,
            &maps,
            self.law,
        ))
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
    (point, position, grad): (&(S, S), &(S, S), &(S, S)),
    dh: &[S],
    tangent: &[Vec<S>],
    maps: &PennyImpact<S>,
    only: Option<PennyLaw>,
) -> ImpactReport {
    let before = &maps.before;
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
