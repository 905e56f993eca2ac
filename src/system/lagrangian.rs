//! General Lagrangian systems of the time stepper (Seghete–Murphey Sect. VI,
//! `seghete-murphey-propagative-impact.txt`): L(q, q̇) = ½ q̇ᵀM(q)q̇ − V(q) with a
//! configuration-dependent mass matrix, a potential, generalized forces F(q, q̇, t)
//! (joint dampers, a controller) and gaps φ_i(q) ≥ 0, every one an expression of the input
//! language in the coordinates (and, for F, in the rates `<name>_dot` and the time `t`).
//!
//! **The step.** The midpoint discrete Lagrangian of Sect. VI (the display before (28)),
//! L_d(q₀, q₁) = h L(q̄, v) with q̄ = (q₀ + q₁)/2 and v = (q₁ − q₀)/h, and the forces by
//! the discrete Lagrange–d'Alembert principle, f_d^± = (h/2) F(q̄, v, t₀ + h/2). With the
//! Legendre transforms p₀ = −D₁L_d − f_d⁻ and p₁ = D₂L_d + f_d⁺ (the sign convention of
//! [`crate::law::variational`]), the DEL equations (28)–(29) of a step from (q₀, p₀) are,
//! in the unknown mean velocity v,
//!
//! G(v) = M(q̄)v − (h/2)[∂_qL(q̄, v) + F(q̄, v, t̄)] − p₀ = 0,  q̄ = q₀ + (h/2)v,
//!
//! with ∂_qL = ½ vᵀ(∂M/∂q)v − ∇V; then q₁ = q₀ + hv and
//! p₁ = M(q̄)v + (h/2)[∂_qL + F] = p₀ + h[∂_qL + F]. For a constant M and an affine ∇V without F this is the
//! step of [`crate::law::variational::Lagrangian::step`]. Nothing in G divides by h, so an
//! enclosure of h may contain 0 (the impact times below).
//!
//! **Solving G(v) = 0.** Derivatives by forward mode ([`Dual`]; ∂_qL by a second level).
//! Rounded backends (`f64`, `mpfr:BITS`): Newton's method from v = M(q₀)⁻¹p₀ to the
//! backend's rounding. Enclosure backends: Newton on midpoints, then a Krawczyk step
//! K(V) = ṽ − Y G(ṽ) + (I − Y J(V))(V − ṽ) on a box V around ṽ (Y ≈ J(ṽ)⁻¹); K(V) inside
//! the interior of V proves that for every (q₀, p₀, h) in their enclosures G has exactly
//! one zero in V, and it lies in K(V). Exact backends cannot hold that zero in general:
//! a run on them is refused with the backends that can.

use crate::arith::dual::Dual;
use crate::arith::{Scalar, Sign};
use crate::lang::{parse_with_variables, Env, Expr};
use crate::law::LawError;
use crate::linalg::{solve, Matrix, SymMatrix, Vector};
use num_rational::BigRational;

/// The most Newton iterations of one step.
pub const MAX_NEWTON: usize = 60;
/// The most enlargements of the Krawczyk box.
const MAX_INFLATIONS: usize = 12;

/// A general Lagrangian system as parsed expressions (no backend).
#[derive(Clone, Debug)]
pub struct Model {
    pub coordinates: Vec<String>,
    /// Named constants, each an expression of the earlier ones.
    pub parameters: Vec<(String, Expr)>,
    /// M(q), n × n (the upper triangle is used; the lower is checked against it).
    pub mass: Vec<Vec<Expr>>,
    pub potential: Option<Expr>,
    pub force: Option<Vec<Expr>>,
    /// Named gaps φ_i(q).
    pub gaps: Vec<(String, Expr)>,
}

/// Where an expression of the model may take its variables from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Parameters: the earlier parameters.
    Parameters(usize),
    /// M, V, φ: the coordinates and parameters.
    Configuration,
    /// F: the coordinates, their rates `<name>_dot`, the time `t` and the parameters.
    Forces,
}

/// The name of the rate of coordinate `c` in force expressions.
pub fn rate_name(c: &str) -> String {
    format!("{c}_dot")
}

impl Model {
    /// Parses `src`, every variable checked against `scope`; the error is the reason.
    pub fn parse(&self, src: &str, scope: Scope) -> Result<Expr, String> {
        let e = parse_with_variables(src).map_err(|e| e.to_string())?;
        let mut vars = Vec::new();
        e.vars(&mut vars);
        for v in vars {
            let param = |upto: usize| self.parameters[..upto].iter().any(|(p, _)| *p == v);
            let ok = match scope {
                Scope::Parameters(upto) => param(upto),
                Scope::Configuration => {
                    self.coordinates.contains(&v) || param(self.parameters.len())
                }
                Scope::Forces => {
                    self.coordinates.contains(&v)
                        || self.coordinates.iter().any(|c| rate_name(c) == v)
                        || v == "t"
                        || param(self.parameters.len())
                }
            };
            if !ok {
                let allowed = match scope {
                    Scope::Parameters(_) => "the parameters above it",
                    Scope::Configuration => "the coordinates and the parameters",
                    Scope::Forces => {
                        "the coordinates, their rates <name>_dot, t and the parameters"
                    }
                };
                return Err(format!("unknown variable `{v}` (it may use {allowed})"));
            }
        }
        Ok(e)
    }

    /// The number of coordinates.
    pub fn dim(&self) -> usize {
        self.coordinates.len()
    }

    /// The model bound to backend `T`: the parameters evaluated once.
    pub fn bind<T: Scalar>(&self, ctx: &T::Ctx) -> Result<Bound<'_, T>, LawError> {
        let mut env: Env<T> = Env::new();
        for (name, e) in &self.parameters {
            let x = e
                .eval_in::<T>(&env, ctx)
                .map_err(|err| LawError::Domain(format!("parameter {name}: {err}")))?;
            env.insert(name.clone(), x);
        }
        Ok(Bound {
            model: self,
            env,
            ctx: ctx.clone(),
        })
    }
}

/// A [`Model`] with its parameters in backend `T`.
#[derive(Clone, Debug)]
pub struct Bound<'a, T: Scalar> {
    pub model: &'a Model,
    env: Env<T>,
    ctx: T::Ctx,
}

impl<T: Scalar> Bound<'_, T> {
    fn eval(&self, e: &Expr, env: &Env<T>, what: impl Fn() -> String) -> Result<T, LawError> {
        e.eval_in::<T>(env, &self.ctx)
            .map_err(|err| LawError::Domain(format!("{}: {err}", what())))
    }

    /// The environment of the configuration q.
    fn at(&self, q: &[T]) -> Env<T> {
        let mut env = self.env.clone();
        for (c, x) in self.model.coordinates.iter().zip(q) {
            env.insert(c.clone(), x.clone());
        }
        env
    }

    /// M(q) from its upper triangle.
    pub fn mass(&self, q: &[T]) -> Result<SymMatrix<T>, LawError> {
        let env = self.at(q);
        let n = q.len();
        let mut upper = Vec::with_capacity(n);
        for i in 0..n {
            let mut row = Vec::with_capacity(n - i);
            for j in i..n {
                row.push(self.eval(&self.model.mass[i][j], &env, || {
                    format!("mass_matrix row {}, column {}", i + 1, j + 1)
                })?);
            }
            upper.push(row);
        }
        Ok(SymMatrix::from_upper(upper)?)
    }

    /// M(q)'s entry (i, j) as given (the lower triangle included).
    pub fn mass_entry(&self, q: &[T], i: usize, j: usize) -> Result<T, LawError> {
        self.eval(&self.model.mass[i][j], &self.at(q), || {
            format!("mass_matrix row {}, column {}", i + 1, j + 1)
        })
    }

    /// V(q) (0 without a potential).
    pub fn potential(&self, q: &[T]) -> Result<T, LawError> {
        match &self.model.potential {
            Some(e) => self.eval(e, &self.at(q), || "potential".into()),
            None => Ok(q[0].zero_like()),
        }
    }

    /// F(q, q̇, t) (0 without forces).
    pub fn force(&self, q: &[T], qdot: &[T], t: &T) -> Result<Vector<T>, LawError> {
        let Some(f) = &self.model.force else {
            return Ok(vec![q[0].zero_like(); q.len()]);
        };
        let mut env = self.at(q);
        for (c, x) in self.model.coordinates.iter().zip(qdot) {
            env.insert(rate_name(c), x.clone());
        }
        env.insert("t".into(), t.clone());
        f.iter()
            .enumerate()
            .map(|(i, e)| self.eval(e, &env, || format!("force component {}", i + 1)))
            .collect()
    }

    /// φ_i(q).
    pub fn gap(&self, i: usize, q: &[T]) -> Result<T, LawError> {
        let (name, e) = &self.model.gaps[i];
        self.eval(e, &self.at(q), || format!("gap {name}"))
    }
}

/// The model bound to the three levels of forward mode a step needs.
#[derive(Clone, Debug)]
pub struct Levels<'a, S: Scalar> {
    pub b0: Bound<'a, S>,
    pub b1: Bound<'a, Dual<S>>,
    pub b2: Bound<'a, Dual<Dual<S>>>,
}

impl<'a, S: Scalar> Levels<'a, S> {
    pub fn new(model: &'a Model, ctx: &S::Ctx) -> Result<Self, LawError> {
        Ok(Levels {
            b0: model.bind::<S>(ctx)?,
            b1: model.bind::<Dual<S>>(ctx)?,
            b2: model.bind::<Dual<Dual<S>>>(ctx)?,
        })
    }

    /// ∇φ_i(q), the normal covector u_i of gap i.
    pub fn normal(&self, i: usize, q: &[S]) -> Result<Vector<S>, LawError> {
        let n = q.len();
        let x = seeded(q);
        Ok(self.b1.gap(i, &x)?.gradient(n))
    }

    /// The energy H(q, p) = ½ pM(q)⁻¹pᵀ + V(q).
    pub fn energy(&self, q: &[S], p: &[S]) -> Result<S, LawError> {
        let m = self.b0.mass(q)?;
        let v = m.solve(p)?;
        let half = q[0].lift(&BigRational::new(1.into(), 2.into()));
        Ok(dot(p, &v).mul_r(&half).add_r(&self.b0.potential(q)?))
    }

    /// q̇ = M(q)⁻¹p.
    pub fn velocity(&self, q: &[S], p: &[S]) -> Result<Vector<S>, LawError> {
        Ok(self.b0.mass(q)?.solve(p)?)
    }
}

/// x seeded as the n variables of forward mode.
fn seeded<S: Scalar>(x: &[S]) -> Vec<Dual<S>> {
    let n = x.len();
    x.iter()
        .enumerate()
        .map(|(i, v)| Dual::var(v.clone(), i, n))
        .collect()
}

fn constants<S: Scalar>(x: &[S]) -> Vec<Dual<S>> {
    x.iter().map(|v| Dual::constant(v.clone())).collect()
}

fn dot<S: Scalar>(a: &[S], b: &[S]) -> S {
    crate::linalg::dot(a.iter(), b.iter())
}

/// The data of one step: the node (q₀, p₀), the start time t₀ and the length h.
#[derive(Clone, Debug)]
pub struct StepAt<'s, T> {
    pub q0: &'s [T],
    pub p0: &'s [T],
    pub t0: &'s T,
    pub h: &'s T,
    /// Gaps held closed (resting contacts): φ_j(q₁) = 0 with multipliers λ_j.
    pub held: &'s [usize],
}

/// (G(v, λ), p₁) of the step at z = (v, λ), in backend `X`, with `bx` the model in `X` and
/// `bd` in `Dual<X>` (for ∂_qL and the held gaps' normals). With held gaps j the force
/// Σλ_j∇φ_j(q̄) joins F, and the rows φ_j(q₀ + hv)/h = 0 join G (the constraint of a
/// resting contact; λ_j ≥ 0 while it pushes).
fn residual<X: Scalar>(
    bx: &Bound<'_, X>,
    bd: &Bound<'_, Dual<X>>,
    at: &StepAt<'_, X>,
    z: &[X],
) -> Result<(Vector<X>, Vector<X>), LawError> {
    let n = at.q0.len();
    let (v, lam) = z.split_at(n);
    let half_h =
        at.h.mul_r(&at.h.lift(&BigRational::new(1.into(), 2.into())));
    let qbar: Vec<X> = at
        .q0
        .iter()
        .zip(v)
        .map(|(q, x)| q.add_r(&half_h.mul_r(x)))
        .collect();
    // L(q̄, v) with q̄ seeded: its gradient is ∂_qL, its mass entries M(q̄)
    let qd = seeded(&qbar);
    let vd = constants(v);
    let m = bd.mass(&qd)?;
    let half = vd[0].lift(&BigRational::new(1.into(), 2.into()));
    let l = m.inner(&vd, &vd).mul_r(&half).sub_r(&bd.potential(&qd)?);
    let mut dl = l.gradient(n);
    for (&j, lj) in at.held.iter().zip(lam) {
        let u = bd.gap(j, &qd)?.gradient(n);
        dl = dl
            .iter()
            .zip(&u)
            .map(|(a, b)| a.add_r(&lj.mul_r(b)))
            .collect();
    }
    let tbar = at.t0.add_r(&half_h);
    let f = bx.force(&qbar, v, &tbar)?;
    let mut g = Vec::with_capacity(z.len());
    let mut p1 = Vec::with_capacity(n);
    for i in 0..n {
        let mv = (0..n).fold(v[0].zero_like(), |s, j| {
            s.add_r(&m.get(i, j).value.mul_r(&v[j]))
        });
        let push = half_h.mul_r(&dl[i].add_r(&f[i]));
        g.push(mv.sub_r(&push).sub_r(&at.p0[i]));
        // p₁ = M(q̄)v + push = p₀ + 2·push where G = 0: written without M(q̄)v so that
        // an enclosure of the node widens p₁ by O(h), not O(1), per step
        p1.push(at.p0[i].add_r(&push).add_r(&push));
    }
    if !at.held.is_empty() {
        let q1: Vec<X> = at
            .q0
            .iter()
            .zip(v)
            .map(|(q, x)| q.add_r(&at.h.mul_r(x)))
            .collect();
        for &j in at.held {
            g.push(bx.gap(j, &q1)?.checked_div(at.h)?);
        }
    }
    Ok((g, p1))
}

/// G(z) and its Jacobian ∂G/∂z (forward mode, z = (v, λ) seeded).
fn jacobian<S: Scalar>(
    lv: &Levels<'_, S>,
    at: &StepAt<'_, S>,
    v: &[S],
) -> Result<(Vector<S>, Matrix<S>), LawError> {
    let n = v.len();
    let (q0, p0) = (constants(at.q0), constants(at.p0));
    let (t0, h) = (Dual::constant(at.t0.clone()), Dual::constant(at.h.clone()));
    let atd = StepAt {
        q0: &q0,
        p0: &p0,
        t0: &t0,
        h: &h,
        held: at.held,
    };
    let (g, _) = residual(&lv.b1, &lv.b2, &atd, &seeded(v))?;
    let value = g.iter().map(|x| x.value.clone()).collect();
    let jac = g.iter().map(|x| x.gradient(n)).collect();
    Ok((value, jac))
}

/// The unit roundoff of `S` as a power of two 2⁻ᵇ (b: the precision in bits; 1024 for
/// exact backends).
pub fn precision_bits<S: Scalar>(one: &S) -> u32 {
    let mut b = 1;
    while b < 1024 {
        let e = one.lift(&BigRational::new(
            1.into(),
            num_bigint::BigInt::from(2).pow(b),
        ));
        if one.add_r(&e).sub_r(one).sign() != Sign::Positive {
            return b - 1;
        }
        b += 1;
    }
    1024
}

/// max_i |x_i| in `f64` (the upper end of an enclosure).
fn norm<S: Scalar>(x: &[S]) -> f64 {
    x.iter()
        .map(|v| match v.enclosure() {
            Some((lo, hi)) => lo.abs().max(hi.abs()),
            None => v.to_f64().abs(),
        })
        .fold(0.0, f64::max)
}

/// The midpoint of an enclosure, as a point of the backend (the value itself elsewhere).
fn mid<S: Scalar>(x: &S) -> S {
    match x.rational_bounds() {
        Some((lo, hi)) if x.enclosure().is_some() => {
            x.lift(&((lo + hi) / BigRational::from_integer(2.into())))
        }
        _ => x.clone(),
    }
}

/// Newton's method for G(v) = 0 from M(q₀)⁻¹p₀ (on enclosures: on the midpoints).
fn newton<S: Scalar>(
    lv: &Levels<'_, S>,
    at: &StepAt<'_, S>,
    bits: u32,
) -> Result<Vector<S>, LawError> {
    // the step of the midpoint node: the Krawczyk step covers the enclosures
    let q0: Vec<S> = at.q0.iter().map(mid).collect();
    let p0: Vec<S> = at.p0.iter().map(mid).collect();
    let (t0, h) = (mid(at.t0), mid(at.h));
    let at = &StepAt {
        q0: &q0,
        p0: &p0,
        t0: &t0,
        h: &h,
        held: at.held,
    };
    let mut v: Vector<S> = lv.b0.mass(&q0)?.solve(&p0)?;
    v = v.iter().map(mid).collect();
    v.extend(at.held.iter().map(|_| h.zero_like()));
    let tol = 2f64.powi(8 - bits as i32);
    let mut last = f64::INFINITY;
    for _ in 0..MAX_NEWTON {
        let (g, j) = jacobian(lv, at, &v)?;
        let jm: Matrix<S> = j.iter().map(|r| r.iter().map(mid).collect()).collect();
        let d = solve(jm, g.iter().map(mid).collect())?;
        v = v.iter().zip(&d).map(|(x, dx)| mid(&x.sub_r(dx))).collect();
        let size = norm(&d);
        let scale = 1.0 + norm(&v);
        if !size.is_finite() {
            break;
        }
        if size <= tol * scale
            || (size <= 2f64.powi(-(bits as i32) / 2) * scale && size >= last / 2.0)
        {
            return Ok(v);
        }
        last = size;
    }
    Err(LawError::Domain(format!(
        "Newton's method for the midpoint equations (28) did not converge in {MAX_NEWTON} iterations (a smaller --dt may help)"
    )))
}

/// The interval [c − r, c + r] of the backend.
fn ball<S: Scalar>(c: &S, r: &BigRational) -> Option<S> {
    let (lo, hi) = c.rational_bounds()?;
    c.lift(&(lo - r)).hull_with(&c.lift(&(hi + r)))
}

/// Whether k lies in the interior of x.
fn inside<S: Scalar>(k: &S, x: &S) -> bool {
    match (k.rational_bounds(), x.rational_bounds()) {
        (Some((klo, khi)), Some((xlo, xhi))) => klo > xlo && khi < xhi,
        _ => false,
    }
}

/// The inverse of a point matrix, its entries taken at their midpoints.
fn inverse<S: Scalar>(a: &Matrix<S>) -> Result<Matrix<S>, LawError> {
    let n = a.len();
    let zero = a[0][0].zero_like();
    let mut cols = Vec::with_capacity(n);
    for k in 0..n {
        let e: Vector<S> = (0..n)
            .map(|i| {
                if i == k {
                    zero.one_like()
                } else {
                    zero.clone()
                }
            })
            .collect();
        cols.push(solve(a.clone(), e)?);
    }
    Ok((0..n)
        .map(|i| (0..n).map(|j| mid(&cols[j][i])).collect())
        .collect())
}

/// A Krawczyk step on a box around ṽ, enlarged until it proves a unique zero of G in it:
/// the enclosure K(V) of every zero for every node and h in their enclosures. The box's
/// radii start at twice the Newton correction Y G(ṽ) and grow (ε-inflation) to 11/10 of
/// the image's.
fn krawczyk<S: Scalar>(
    lv: &Levels<'_, S>,
    at: &StepAt<'_, S>,
    vt: &[S],
) -> Result<Vector<S>, LawError> {
    let n = vt.len();
    let (g, j) = jacobian(lv, at, vt)?;
    let jm: Matrix<S> = j.iter().map(|r| r.iter().map(mid).collect()).collect();
    let y = inverse(&jm)?;
    let yg: Vector<S> = (0..n)
        .map(|i| (0..n).fold(vt[0].zero_like(), |s, k| s.add_r(&y[i][k].mul_r(&g[k]))))
        .collect();
    let head: Vector<S> = vt.iter().zip(&yg).map(|(a, b)| a.sub_r(b)).collect();
    let to_q =
        |x: f64| BigRational::from_float(x).unwrap_or_else(|| BigRational::from_integer(1.into()));
    // a few units in the last place of ṽ
    let ulp = 2f64.powi(4 - precision_bits(&vt[0]) as i32);
    let mut r: Vec<f64> = (0..n)
        .map(|i| 2.0 * norm(&yg[i..=i]) + ulp * (1.0 + norm(&vt[i..=i])))
        .collect();
    for _ in 0..MAX_INFLATIONS {
        if r.iter().any(|x| !x.is_finite()) {
            break;
        }
        let boxes: Option<Vector<S>> = vt
            .iter()
            .zip(&r)
            .map(|(c, ri)| ball(c, &to_q(*ri)))
            .collect();
        let Some(xb) = boxes else { break };
        let (_, jx) = jacobian(lv, at, &xb)?;
        let dx: Vector<S> = xb.iter().zip(vt).map(|(a, b)| a.sub_r(b)).collect();
        let mut k = Vec::with_capacity(n);
        for i in 0..n {
            let mut s = head[i].clone();
            for c in 0..n {
                // (I − Y J(X))_{ic}
                let mut e =
                    (0..n).fold(vt[0].zero_like(), |s, m| s.add_r(&y[i][m].mul_r(&jx[m][c])));
                e = if i == c { e.one_like().sub_r(&e) } else { -e };
                s = s.add_r(&e.mul_r(&dx[c]));
            }
            k.push(s);
        }
        if k.iter().zip(&xb).all(|(a, b)| inside(a, b)) {
            return Ok(k);
        }
        r = (0..n)
            .map(|i| {
                let spread = norm(&[k[i].sub_r(&vt[i])]);
                (11.0 / 10.0 * spread).max(r[i]) + ulp * (1.0 + norm(&vt[i..=i]))
            })
            .collect();
    }
    let worst = r.iter().copied().fold(0.0, f64::max);
    Err(LawError::Undecided {
        quantity: "the solution of the midpoint equations (28) (the Krawczyk test failed)".into(),
        lo: format!("{:e}", -worst),
        hi: format!("{worst:e}"),
    })
}

/// (q₁, p₁, λ of the held gaps).
pub type Stepped<S> = (Vector<S>, Vector<S>, Vector<S>);

/// One step of length h from (q₀, p₀) at t₀: (q₁, p₁, λ of the held gaps). On enclosure
/// backends the result encloses the step of every node and h in their enclosures (held
/// gaps: rounded backends only).
pub fn step<S: Scalar>(lv: &Levels<'_, S>, at: &StepAt<'_, S>) -> Result<Stepped<S>, LawError> {
    if S::is_exact() {
        return Err(LawError::Domain(
            "the midpoint equations (28) of a configuration-dependent system have no closed-form solution; use --arith f64, mpfr:BITS, interval or mpi:BITS".into(),
        ));
    }
    let n = at.q0.len();
    let enclosure = at.q0[0].enclosure().is_some();
    if enclosure && !at.held.is_empty() {
        return Err(LawError::Domain(
            "a contact comes to rest: resting contacts of a [lagrangian] system are held on f64 and mpfr:BITS only".into(),
        ));
    }
    let bits = precision_bits(&at.q0[0].one_like());
    let mut z = newton(lv, at, bits)?;
    if enclosure {
        z = krawczyk(lv, at, &z)?;
    }
    let (_, p1) = residual(&lv.b0, &lv.b1, at, &z)?;
    let q1 = at
        .q0
        .iter()
        .zip(&z)
        .map(|(q, x)| q.add_r(&at.h.mul_r(x)))
        .collect();
    Ok((q1, p1, z[n..].to_vec()))
}
