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
use crate::lang::tape::{Code, Program};
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
    /// Rigid bodies whose kinetic energy joins M(q).
    pub bodies: Vec<Body>,
    /// g of the bodies' potential Σ m_b g c_b,last.
    pub gravity: Option<Expr>,
}

/// A rigid body of the kinetic energy, T_b = ½ m |ċ(q)|² + ½ I θ̇(q)²: M(q) gains
/// m J_cᵀJ_c + I ∇θ∇θᵀ (the TREX mass model of Seghete–Murphey Sect. VII-B is of this form,
/// `docs/trex-model.md`).
#[derive(Clone, Debug)]
pub struct Body {
    pub name: String,
    pub mass: Expr,
    /// The centre of mass c(q) (1 to 3 components; the last is the height).
    pub position: Vec<Expr>,
    /// (θ(q), I): the angle in the plane and the moment of inertia about c.
    pub rotation: Option<(Expr, Expr)>,
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

    /// The model compiled to programs ([`super::lagrangian_compile`]): M, V, the gaps and
    /// their gradients in the coordinates, and the step's equations G(v, λ) with their
    /// exact Jacobian, every derivative symbolic. The error names the expression.
    pub fn compile(&self) -> Result<Programs, String> {
        super::lagrangian_compile::compile(self)
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

    /// V(q) (0 without a potential), with the bodies' Σ m_b g c_b,last under gravity.
    pub fn potential(&self, q: &[T]) -> Result<T, LawError> {
        let env = self.at(q);
        let mut v = match &self.model.potential {
            Some(e) => self.eval(e, &env, || "potential".into())?,
            None => q[0].zero_like(),
        };
        if let Some(g) = &self.model.gravity {
            let g = self.eval(g, &env, || "gravity".into())?;
            for b in &self.model.bodies {
                let what = |x: &str| format!("body {} {x}", b.name);
                let m = self.eval(&b.mass, &env, || what("mass"))?;
                let Some(c) = b.position.last() else { continue };
                let h = self.eval(c, &env, || what("position"))?;
                v = v.add_r(&g.mul_r(&m).mul_r(&h));
            }
        }
        Ok(v)
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

/// The model bound to backend `S` for a run: the expression path ([`Bound`], which names
/// the expression that fails) and, on every backend but the exact ones, the compiled
/// programs ([`Programs`]) the step evaluates.
#[derive(Clone, Debug)]
pub struct Levels<'a, S: Scalar> {
    pub b0: Bound<'a, S>,
    /// For the normals on exact backends.
    b1: Bound<'a, Dual<S>>,
    fast: Option<Fast<S>>,
    /// The backend's precision in bits ([`precision_bits`]).
    pub bits: u32,
    /// 1/2 in the backend.
    pub half: S,
}

/// The compiled programs in a backend, with one register file reused by every call.
#[derive(Clone, Debug)]
struct Fast<S> {
    n: usize,
    m: usize,
    mass: Code<S>,
    potential: Code<S>,
    gaps: Vec<Code<S>>,
    normals: Vec<Code<S>>,
    free: Code<S>,
    momentum: Code<S>,
    held: Code<S>,
    regs: std::cell::RefCell<Vec<S>>,
    /// The inputs of the step's programs.
    inputs: std::cell::RefCell<Vec<S>>,
}

impl<'a, S: Scalar> Levels<'a, S> {
    pub fn new(model: &'a Model, ctx: &S::Ctx) -> Result<Self, LawError> {
        let b0 = model.bind::<S>(ctx)?;
        let fast = if S::is_exact() {
            None
        } else {
            let programs = model.compile().map_err(LawError::Domain)?;
            let mut named: Vec<Option<S>> = model
                .parameters
                .iter()
                .map(|(p, _)| b0.env.get(p).cloned())
                .collect();
            named.push(S::pi(ctx).ok());
            let missing = |_| crate::arith::ArithError::Domain("pi is not available".into());
            let bind = |p: &Program| {
                p.bind(&named, ctx, missing)
                    .map_err(|e| LawError::Domain(e.to_string()))
            };
            let all = |ps: &[Program]| ps.iter().map(bind).collect::<Result<Vec<_>, _>>();
            Some(Fast {
                n: model.dim(),
                m: model.gaps.len(),
                mass: bind(&programs.mass)?,
                potential: bind(&programs.potential)?,
                gaps: all(&programs.gaps)?,
                normals: all(&programs.normals)?,
                free: bind(&programs.free)?,
                momentum: bind(&programs.momentum)?,
                held: bind(&programs.held)?,
                regs: Default::default(),
                inputs: Default::default(),
            })
        };
        let one = S::from_rational(&BigRational::from_integer(1.into()), ctx);
        Ok(Levels {
            b0,
            b1: model.bind::<Dual<S>>(ctx)?,
            fast,
            bits: precision_bits(&one),
            half: S::from_rational(&BigRational::new(1.into(), 2.into()), ctx),
        })
    }

    /// Runs `code` on `inputs` and reads its outputs `range` (`Err` with the backend's
    /// message).
    fn run(
        fast: &Fast<S>,
        code: &Code<S>,
        inputs: &[S],
        range: std::ops::Range<usize>,
    ) -> Result<Vec<S>, crate::arith::ArithError> {
        let mut regs = fast.regs.borrow_mut();
        code.run(inputs, &mut regs)?;
        Ok(range.map(|k| code.output(&regs, k).clone()).collect())
    }

    /// Runs the one-output `code` on `inputs`.
    fn run1(fast: &Fast<S>, code: &Code<S>, inputs: &[S]) -> Result<S, crate::arith::ArithError> {
        let mut regs = fast.regs.borrow_mut();
        code.run(inputs, &mut regs)?;
        Ok(code.output(&regs, 0).clone())
    }

    /// φ_i(q).
    pub fn gap(&self, i: usize, q: &[S]) -> Result<S, LawError> {
        match &self.fast {
            Some(f) => match Self::run1(f, &f.gaps[i], q) {
                Ok(x) => Ok(x),
                Err(e) => Err(self.b0.gap(i, q).err().unwrap_or_else(|| {
                    LawError::Domain(format!("gap {}: {e}", self.b0.model.gaps[i].0))
                })),
            },
            None => self.b0.gap(i, q),
        }
    }

    /// M(q).
    pub fn mass(&self, q: &[S]) -> Result<SymMatrix<S>, LawError> {
        let Some(f) = &self.fast else {
            return self.mass_by_expressions(q);
        };
        let n = f.n;
        let flat = Self::run(f, &f.mass, q, 0..n * (n + 1) / 2).map_err(|e| {
            self.b0
                .mass(q)
                .err()
                .unwrap_or_else(|| LawError::Domain(format!("mass_matrix: {e}")))
        })?;
        let mut it = flat.into_iter();
        let upper = (0..n).map(|i| it.by_ref().take(n - i).collect()).collect();
        Ok(SymMatrix::from_upper(upper)?)
    }

    /// M(q) by evaluating the expressions (the bodies' Jacobians by forward mode).
    fn mass_by_expressions(&self, q: &[S]) -> Result<SymMatrix<S>, LawError> {
        let m = self.b0.mass(q)?;
        if self.b0.model.bodies.is_empty() {
            return Ok(m);
        }
        let n = q.len();
        let (x, xd) = (self.b0.at(q), self.b1.at(&seeded(q)));
        let mut upper: Vec<Vec<S>> = (0..n)
            .map(|i| (i..n).map(|j| m.get(i, j).clone()).collect())
            .collect();
        for b in &self.b0.model.bodies {
            let what = |w: &str| format!("body {} {w}", b.name);
            let mb = self.b0.eval(&b.mass, &x, || what("mass"))?;
            let mut rows: Vec<(S, Vector<S>)> = Vec::new();
            for c in &b.position {
                let d = self.b1.eval(c, &xd, || what("position"))?;
                rows.push((mb.clone(), d.gradient(n)));
            }
            if let Some((th, inertia)) = &b.rotation {
                let ib = self.b0.eval(inertia, &x, || what("inertia"))?;
                let d = self.b1.eval(th, &xd, || what("angle"))?;
                rows.push((ib, d.gradient(n)));
            }
            for (w, r) in &rows {
                for i in 0..n {
                    for j in i..n {
                        let t = w.mul_r(&r[i].mul_r(&r[j]));
                        upper[i][j - i] = upper[i][j - i].add_r(&t);
                    }
                }
            }
        }
        Ok(SymMatrix::from_upper(upper)?)
    }

    /// V(q) (0 without a potential).
    pub fn potential(&self, q: &[S]) -> Result<S, LawError> {
        match &self.fast {
            Some(f) => match Self::run1(f, &f.potential, q) {
                Ok(x) => Ok(x),
                Err(e) => Err(self
                    .b0
                    .potential(q)
                    .err()
                    .unwrap_or_else(|| LawError::Domain(format!("potential: {e}")))),
            },
            None => self.b0.potential(q),
        }
    }

    /// ∇φ_i(q), the normal covector u_i of gap i.
    pub fn normal(&self, i: usize, q: &[S]) -> Result<Vector<S>, LawError> {
        let n = q.len();
        match &self.fast {
            Some(f) => Self::run(f, &f.normals[i], q, 0..n).map_err(|e| {
                LawError::Domain(format!(
                    "the gradient of gap {}: {e}",
                    self.b0.model.gaps[i].0
                ))
            }),
            None => Ok(self.b1.gap(i, &seeded(q))?.gradient(n)),
        }
    }

    /// The energy H(q, p) = ½ pM(q)⁻¹pᵀ + V(q).
    pub fn energy(&self, q: &[S], p: &[S]) -> Result<S, LawError> {
        let m = self.mass(q)?;
        let v = m.solve(p)?;
        Ok(dot(p, &v).mul_r(&self.half).add_r(&self.potential(q)?))
    }

    /// q̇ = M(q)⁻¹p.
    pub fn velocity(&self, q: &[S], p: &[S]) -> Result<Vector<S>, LawError> {
        Ok(self.mass(q)?.solve(p)?)
    }

    /// G(z), p₁ and ∂G/∂z of the step at z = (v, λ of the held gaps) (the module's G,
    /// with the held gaps' force Σλ_j∇φ_j(q̄) in F and their rows φ_j(q₀ + hv)/h);
    /// `Err` on exact backends.
    fn equations(&self, at: &StepAt<'_, S>, z: &[S]) -> Result<Equations<S>, LawError> {
        let f = self.fast()?;
        let (n, m, k) = (f.n, f.m, at.held.len());
        let inputs = Self::inputs(f, at, z);
        let code = if k == 0 { &f.free } else { &f.held };
        let stride = if k == 0 { n } else { n + m };
        let mut regs = f.regs.borrow_mut();
        code.run(&inputs, &mut regs)
            .map_err(|e| self.diagnose(at, &z[..n], e))?;
        let out = |k: usize| code.output(&regs, k).clone();
        let mut g: Vector<S> = (0..n).map(out).collect();
        let mut jac: Matrix<S> = (0..n)
            .map(|i| {
                let row = 2 * n + i * stride;
                (row..row + n)
                    .chain(at.held.iter().map(|&j| row + n + j))
                    .map(out)
                    .collect()
            })
            .collect();
        // the held rows φ_j(q₁)/h, their Jacobian ∇φ_j(q₁) (and 0 in λ)
        let rows = 2 * n + n * stride;
        for &j in at.held {
            g.push(out(rows + j).checked_div(at.h)?);
            let mut r: Vector<S> = (rows + m + j * n..rows + m + (j + 1) * n)
                .map(out)
                .collect();
            r.extend((0..k).map(|_| at.h.zero_like()));
            jac.push(r);
        }
        Ok(Equations { g, jac })
    }

    /// p₁ = p₀ + h[∂_qL + F] of the step at z.
    fn momentum(&self, at: &StepAt<'_, S>, z: &[S]) -> Result<Vector<S>, LawError> {
        let f = self.fast()?;
        // without held gaps, the program of p₁ alone; with them, p₁ follows G's outputs
        let (code, first) = if at.held.is_empty() {
            (&f.momentum, 0)
        } else {
            (&f.held, f.n)
        };
        let inputs = Self::inputs(f, at, z);
        let mut regs = f.regs.borrow_mut();
        code.run(&inputs, &mut regs)
            .map_err(|e| self.diagnose(at, &z[..f.n], e))?;
        Ok((first..first + f.n)
            .map(|k| code.output(&regs, k).clone())
            .collect())
    }

    fn fast(&self) -> Result<&Fast<S>, LawError> {
        self.fast
            .as_ref()
            .ok_or_else(|| LawError::Domain(EXACT_REFUSAL.into()))
    }

    /// The programs' inputs (q₀, p₀, t₀, h, v, λ) at z = (v, λ of the held gaps), λ = 0
    /// for the gaps not held, written into `f.inputs`.
    fn inputs<'f>(f: &'f Fast<S>, at: &StepAt<'_, S>, z: &[S]) -> std::cell::RefMut<'f, Vec<S>> {
        let (v, lam) = z.split_at(f.n);
        let mut inputs = f.inputs.borrow_mut();
        inputs.clear();
        inputs.extend_from_slice(at.q0);
        inputs.extend_from_slice(at.p0);
        inputs.push(at.t0.clone());
        inputs.push(at.h.clone());
        inputs.extend_from_slice(v);
        inputs.extend(
            (0..f.m).map(|j| match at.held.iter().position(|&h| h == j) {
                Some(pos) => lam[pos].clone(),
                None => at.h.zero_like(),
            }),
        );
        inputs
    }

    /// The error of a step whose compiled equations failed: the model's expression that
    /// fails at (q̄, v, t̄), named, or the backend's message.
    fn diagnose(&self, at: &StepAt<'_, S>, v: &[S], e: crate::arith::ArithError) -> LawError {
        let half_h = at.h.mul_r(&self.half);
        let qbar: Vec<S> = at
            .q0
            .iter()
            .zip(v)
            .map(|(q, x)| q.add_r(&half_h.mul_r(x)))
            .collect();
        let tbar = at.t0.add_r(&half_h);
        let named = self
            .b0
            .mass(&qbar)
            .err()
            .or_else(|| self.b0.potential(&qbar).err())
            .or_else(|| self.b0.force(&qbar, v, &tbar).err());
        named.unwrap_or_else(|| {
            LawError::Domain(format!(
                "the derivatives of the model in the midpoint equations (28): {e}"
            ))
        })
    }
}

/// The refusal of exact backends.
const EXACT_REFUSAL: &str = "the midpoint equations (28) of a configuration-dependent system have no closed-form solution; use --arith f64, mpfr:BITS, interval or mpi:BITS";

/// The equations of a step at z: G(z) and ∂G/∂z.
struct Equations<S> {
    g: Vector<S>,
    jac: Matrix<S>,
}

/// The compiled programs of a [`Model`] ([`Model::compile`]).
#[derive(Clone, Debug)]
pub struct Programs {
    /// q ↦ M(q)'s upper triangle, row by row.
    pub mass: Program,
    /// q ↦ V(q).
    pub potential: Program,
    /// q ↦ φ_j(q).
    pub gaps: Vec<Program>,
    /// q ↦ ∇φ_j(q).
    pub normals: Vec<Program>,
    /// Without held gaps, (q₀, p₀, t₀, h, v, λ) ↦ G (n), p₁ (n), ∂G/∂v (n rows of n).
    pub free: Program,
    /// Without held gaps, (q₀, p₀, t₀, h, v, λ) ↦ p₁.
    pub momentum: Program,
    /// With the held gaps' forces, (q₀, p₀, t₀, h, v, λ) ↦ G (n), p₁ (n), ∂G/∂(v, λ)
    /// (n rows of n + m), φ_j(q₁) (m), ∇φ_j(q₁) (m rows of n), q₁ = q₀ + hv.
    pub held: Program,
}

/// x seeded as the n variables of forward mode.
fn seeded<S: Scalar>(x: &[S]) -> Vec<Dual<S>> {
    let n = x.len();
    x.iter()
        .enumerate()
        .map(|(i, v)| Dual::var(v.clone(), i, n))
        .collect()
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

/// max(w_v·max_{i<n} |x_i|, w_λ·max_{i≥n} |x_i|): the velocity part and the multipliers
/// of a Newton iterate, each weighted.
fn weighted_norm<S: Scalar>(x: &[S], n: usize, (wv, wl): (f64, f64)) -> f64 {
    let (v, lam) = x.split_at(n.min(x.len()));
    (wv * norm(v)).max(wl * norm(lam))
}

/// The midpoint of an enclosure, as a point of the backend (the value itself elsewhere).
fn mid<S: Scalar>(x: &S) -> S {
    if x.enclosure().is_none() {
        return x.clone();
    }
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
    let enclosure = at.q0[0].enclosure().is_some();
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
    let mut v: Vector<S> = lv.mass(&q0)?.solve(&p0)?;
    v = v.iter().map(mid).collect();
    v.extend(at.held.iter().map(|_| h.zero_like()));
    let tol = 2f64.powi(8 - bits as i32);
    // with held contacts, φ_j(q₀ + hv) = 0 fixes q₁ only to the rounding ε, so v to about
    // ε/h and the multipliers λ to ε/h²: corrections are measured by their effect on q₁
    // (h·dv) and on the held impulse (h²·dλ), else Newton cycles at that noise level
    let weight = match at.held.is_empty() {
        true => (1.0, 1.0),
        false => {
            let h = h.to_f64().abs();
            (h, h * h)
        }
    };
    let n = at.q0.len();
    let mut last = f64::INFINITY;
    for _ in 0..MAX_NEWTON {
        let Equations { g, jac: j } = lv.equations(at, &v)?;
        let d = if enclosure {
            let jm: Matrix<S> = j.iter().map(|r| r.iter().map(mid).collect()).collect();
            solve(jm, g.iter().map(mid).collect())?
        } else {
            solve(j, g)?
        };
        for (x, dx) in v.iter_mut().zip(&d) {
            *x = mid(&x.sub_r(dx));
        }
        let size = weighted_norm(&d, n, weight);
        let scale = 1.0 + weighted_norm(&v, n, weight);
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
    let Equations { g, jac: j } = lv.equations(at, vt)?;
    let jm: Matrix<S> = j.iter().map(|r| r.iter().map(mid).collect()).collect();
    let y = inverse(&jm)?;
    let yg: Vector<S> = (0..n)
        .map(|i| (0..n).fold(vt[0].zero_like(), |s, k| s.add_r(&y[i][k].mul_r(&g[k]))))
        .collect();
    let head: Vector<S> = vt.iter().zip(&yg).map(|(a, b)| a.sub_r(b)).collect();
    let to_q =
        |x: f64| BigRational::from_float(x).unwrap_or_else(|| BigRational::from_integer(1.into()));
    // a few units in the last place of ṽ
    let ulp = 2f64.powi(4 - lv.bits as i32);
    let mut r: Vec<f64> = (0..n)
        .map(|i| 2.0 * norm(&yg[i..=i]) + ulp * (1.0 + norm(&vt[i..=i])))
        .collect();
    // the widest finite radius tried
    let mut widest = 0.0f64;
    for _ in 0..MAX_INFLATIONS {
        if r.iter().any(|x| !x.is_finite()) {
            break;
        }
        widest = r.iter().copied().fold(widest, f64::max);
        let boxes: Option<Vector<S>> = vt
            .iter()
            .zip(&r)
            .map(|(c, ri)| ball(c, &to_q(*ri)))
            .collect();
        let Some(xb) = boxes else { break };
        let jx = lv.equations(at, &xb)?.jac;
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
    // a radius that overflowed says the box diverged
    let diverged = r.iter().any(|x| !x.is_finite());
    let worst = r
        .iter()
        .copied()
        .filter(|x| x.is_finite())
        .fold(widest, f64::max);
    let quantity = if diverged {
        "the solution of the midpoint equations (28) (the Krawczyk test failed: the box diverged; widest finite radius shown)"
    } else {
        "the solution of the midpoint equations (28) (the Krawczyk test failed)"
    };
    Err(LawError::Undecided {
        quantity: quantity.into(),
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
        return Err(LawError::Domain(EXACT_REFUSAL.into()));
    }
    let n = at.q0.len();
    let enclosure = at.q0[0].enclosure().is_some();
    if enclosure && !at.held.is_empty() {
        return Err(LawError::Domain(
            "a contact comes to rest: resting contacts of a [lagrangian] system are held on f64 and mpfr:BITS only".into(),
        ));
    }
    let mut z = newton(lv, at, lv.bits)?;
    if enclosure {
        z = krawczyk(lv, at, &z)?;
    }
    let p1 = lv.momentum(at, &z)?;
    let q1 = at
        .q0
        .iter()
        .zip(&z)
        .map(|(q, x)| q.add_r(&at.h.mul_r(x)))
        .collect();
    Ok((q1, p1, z[n..].to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Rational;

    fn model(position: &[&str], rotation: Option<(&str, &str)>) -> Model {
        let e = |x: &str| parse_with_variables(x).unwrap();
        Model {
            coordinates: vec!["a".into()],
            parameters: vec![],
            mass: vec![vec![e("0")]],
            potential: None,
            force: None,
            gaps: vec![],
            bodies: vec![Body {
                name: "rod".into(),
                mass: e("3"),
                position: position.iter().map(|x| e(x)).collect(),
                rotation: rotation.map(|(t, i)| (e(t), e(i))),
            }],
            gravity: Some(e("10")),
        }
    }

    /// A body of mass 3 whose centre moves linearly, c = (a/2, a/3), turning by a with
    /// I = 1/4 (linear, so that the exact path applies): M = m|∂c/∂a|² + I exactly, by
    /// expressions on the rationals and compiled in f64.
    #[test]
    fn a_body_adds_m_jt_j_and_i_grad_theta_squared() {
        let m = model(&["a/2", "a/3"], Some(("a", "1/4")));
        // m|∂c/∂a|² + I = 3(1/4 + 1/9) + 1/4 = 13/12 + 1/4 = 4/3
        let exact = Levels::<Rational>::new(&m, &()).unwrap();
        let q = [Rational::new(1, 5)];
        assert_eq!(*exact.mass(&q).unwrap().get(0, 0), Rational::new(4, 3));
        // V = m g c_last = 3·10·a/3 = 10a
        assert_eq!(exact.potential(&q).unwrap(), Rational::new(2, 1));
        let float = Levels::<f64>::new(&m, &()).unwrap();
        assert!((float.mass(&[0.2]).unwrap().get(0, 0) - 4.0 / 3.0).abs() < 1e-15);
        assert!((float.potential(&[0.2]).unwrap() - 2.0).abs() < 1e-15);
    }

    /// A compound pendulum (a uniform rod of length 1 about its end): M = m/3.
    #[test]
    fn compound_pendulum_inertia() {
        let m = model(&["sin(a)/2", "-cos(a)/2"], Some(("a", "3/12")));
        let float = Levels::<f64>::new(&m, &()).unwrap();
        for a in [0.0, 0.7, 2.0] {
            assert!((float.mass(&[a]).unwrap().get(0, 0) - 1.0).abs() < 1e-15);
        }
    }
}
