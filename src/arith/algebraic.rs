//! Exact arithmetic in a real number field Q(θ): the `algebraic` backend.
//!
//! θ is one of these kinds of generator, each with its minimal polynomial P built so that it
//! is irreducible, which makes the zero test exact and trivial (an element reduced modulo
//! P is zero iff all its coefficients are):
//!
//! * θ = cos(π/N): P is the minimal polynomial of cos(2π/M), M = 2N, of degree φ(M)/2,
//!   obtained from the cyclotomic polynomial Φ_M(z) = z^{φ/2}·Ψ(z + 1/z) (Lehmer 1933,
//!   "A note on trigonometric algebraic numbers"); Φ_M is irreducible over Q, hence so is
//!   Ψ. Every sin, cos and tan of a rational multiple kπ/n lies in Q(cos(π/2n)), since
//!   sin x = cos(π/2 − x) and cos(kx) = T_k(cos x); √2 = 2cos(π/4), √3 = 2cos(π/6) and
//!   √5 = 4cos(π/5) − 1 live there too. Two such fields meet in Q(cos(π/L)), L the least
//!   common multiple, where cos(π/m) = T_{L/m}(cos(π/L)): that embedding is all the
//!   compositum this backend builds.
//! * θ = √r, r > 1 square-free with a prime factor other than 2, 3, 5: P = x² − r.
//! * θ = s^(1/m), m ≥ 3 odd, for `root(q, k)` of a rational q: P = x^m − s, irreducible
//!   by Capelli's theorem (x^n − a is irreducible over Q iff a is no p-th power for a
//!   prime p | n and, for 4 | n, a ∉ −4Q⁴) because the largest divisor e of k for which
//!   the radicand is a perfect e-th power is taken out first. One generator serves each
//!   such field for prime m (`root(4,3)` = `root(2,3)^2`). A field of odd degree has no
//!   quadratic subfield, so √r of a rational that is not a rational square lies outside
//!   it; in Q(s^(1/m)) a monomial c·θ^i is a square iff c (i even) or c/s (i odd) is one.
//! * θ = √c for an element c of a field K that is not a square in K: the field
//!   K(√c) = K ⊕ K·√c of degree 2·[K : Q], built when a square root leaves K (a tower
//!   of quadratic extensions). Its elements are pairs (u, v) of K, u + v√c, multiplied
//!   as (u₁u₂ + c·v₁v₂) + (u₁v₂ + u₂v₁)√c and inverted as (u − v√c)/(u² − c·v²); the
//!   pair is zero iff both parts are, because √c ∉ K. Whether c is a square in K is
//!   decided exactly by descent: over K = F(√e), u + v√e (v ≠ 0) is a square iff
//!   N = u² − e·v² is a square n² in F and one of (u ± n)/2 is a square x² in F (then
//!   the root is x + (v/2x)√e); u ∈ F is a square in K iff u or u/e is one in F. The
//!   descent ends in Q; it is complete for towers over Q and over the degree-2 fields
//!   (Q(√r), Q(√2), Q(√3), Q(√5)). In a field of cosines of degree above 2 it is not
//!   available, and a square root that is not found there is an error, as before: a
//!   tower over a field in which c might be a square would not be a field. Two towers
//!   meet in the tower that adjoins the second one's roots to the first. The degree of
//!   the towers a square root may build is limited ([`set_max_degree`], 64 by default).
//!
//! An element is a polynomial in θ of degree < deg P with GMP rational coefficients;
//! rational elements carry no field and meet any field. Signs are decided by evaluating
//! a(θ) in MPFR intervals ([`MpInterval`], with a rigorous enclosure of θ) at rising
//! precision: a nonzero element has a nonzero value, so the loop ends. Division is the
//! extended Euclidean algorithm modulo P. Square roots are exact: in the field where the
//! element is a square there, in a tower built for it where the descent above shows it
//! is not, and [`ArithError::NotRepresentable`] where neither can be decided or the
//! tower would exceed the degree limit.
//!
//! The owned operators update the left operand's coefficients in place when both operands
//! share a field (the nalgebra pattern [`super::Rational`] and [`super::Quadratic`]
//! follow); the borrowed helpers build one result.

use super::decimal::{float_to_decimal, ExactValue, Num};
use super::{not_representable, ArithError, Kind, MpInterval, Quadratic, Rendered, Scalar, Sign};
use num_rational::BigRational;
use rug::float::Round;
use rug::{Float, Integer, Rational};
use std::collections::HashMap;
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex, OnceLock};

/// Largest degree of a field of cosines (the `algebraic` backend refuses larger ones with
/// one line), and the default limit of the towers square roots build.
pub const MAX_DEGREE: usize = 64;

/// Largest degree accepted by [`set_max_degree`].
pub const MAX_TOWER_DEGREE: usize = 1024;

static TOWER_LIMIT: AtomicUsize = AtomicUsize::new(MAX_DEGREE);

/// Sets, for the whole process, the largest degree of a field a square root may build
/// (a tower K(√c)); clamped to 2..=[`MAX_TOWER_DEGREE`]. Fields that exist already are
/// kept, and two towers that meet are joined whatever their degree.
pub fn set_max_degree(n: usize) {
    TOWER_LIMIT.store(n.clamp(2, MAX_TOWER_DEGREE), AtomicOrdering::Relaxed);
}

/// The current limit of [`set_max_degree`].
pub fn max_degree() -> usize {
    TOWER_LIMIT.load(AtomicOrdering::Relaxed)
}

/// Precision at which signs are first tried; it doubles until the sign is decided.
const FIRST_PREC: u32 = 128;
/// Precision past which a sign is reported undecided (never reached by a nonzero element
/// of moderate size; a guard against unbounded work).
const LAST_PREC: u32 = 1 << 22;

/// The generator θ of a field.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Generator {
    /// θ = cos(π/N), N ≥ 4.
    CosPi(u32),
    /// θ = √r, r > 1 square-free.
    Sqrt(Integer),
    /// θ = s^(1/k), k ≥ 3 odd, s > 1 an integer that is no p-th power for a prime p | k,
    /// so that x^k − s is irreducible (Capelli).
    Root {
        /// The radicand s.
        s: Integer,
        /// The odd index k.
        k: u32,
    },
    /// θ = √c, c an element (coefficients `radicand`) of the field numbered `parent` that
    /// is not a square there; `text` is c in the input language.
    Adjoin {
        /// The number of the field K (see [`Field::id`]).
        parent: u64,
        /// c's coefficients in K.
        radicand: Vec<Rational>,
        /// c, printed.
        text: String,
    },
}

impl fmt::Display for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Generator::CosPi(n) => write!(f, "cos(pi/{n})"),
            Generator::Sqrt(r) => write!(f, "sqrt({r})"),
            Generator::Root { s, k } => write!(f, "root({s},{k})"),
            Generator::Adjoin { text, .. } => write!(f, "sqrt({text})"),
        }
    }
}

/// A number field Q(θ) with θ's minimal polynomial and a cache of θ's enclosures.
#[derive(Debug)]
pub struct Field {
    id: u64,
    gen: Generator,
    /// The degree over Q.
    n: usize,
    /// For K(√c): K and c's coefficients in K (then `monic` and `red` are empty, and the
    /// basis is K's basis followed by K's basis times √c).
    tower: Option<Tower>,
    /// The low coefficients m_0 … m_{n−1} of the monic minimal polynomial:
    /// θⁿ = −Σ m_i θ^i.
    monic: Vec<Rational>,
    /// Row j is θ^{n+j} in the basis 1, θ, …, θ^{n−1} (j = 0 … n−2).
    red: Vec<Vec<Rational>>,
    /// Enclosures of θ by precision.
    theta: Mutex<HashMap<u32, MpInterval>>,
    /// Images of the generators of subfields Q(cos(π/m)) (by m), for embeddings.
    images: Mutex<HashMap<u32, Algebraic>>,
    /// The powers 1, φ, φ², … of those images (φ = T_{N/m}(θ)) as coefficient vectors,
    /// the columns of [`Algebraic::simplest`]'s linear systems.
    subfield_bases: Mutex<HashMap<u32, Arc<Vec<Vec<Rational>>>>>,
    /// Images in this field of the generators √c of the towers it contains (by their id).
    roots: Mutex<HashMap<u64, Algebraic>>,
    /// Joins with other fields (by their id).
    joins: Mutex<HashMap<u64, Arc<Field>>>,
}

/// The structure of a field K(√c).
#[derive(Debug)]
struct Tower {
    parent: Arc<Field>,
    c: Vec<Rational>,
}

fn next_field_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, AtomicOrdering::Relaxed)
}

impl Field {
    /// The degree over Q.
    pub fn degree(&self) -> usize {
        self.n
    }
    /// A number that identifies the field within the process.
    pub fn id(&self) -> u64 {
        self.id
    }
    /// The generator.
    pub fn generator(&self) -> &Generator {
        &self.gen
    }
    /// The monic minimal polynomial's coefficients, constant term first, leading 1 last
    /// (`None` for a tower K(√c), which is given by K and c instead).
    pub fn min_poly(&self) -> Option<Vec<Rational>> {
        if self.tower.is_some() {
            return None;
        }
        let mut p = self.monic.clone();
        p.push(Rational::from(1));
        Some(p)
    }
    fn tower(gen: Generator, parent: Arc<Field>, c: Vec<Rational>) -> Field {
        Field {
            id: next_field_id(),
            gen,
            n: 2 * parent.n,
            tower: Some(Tower { parent, c }),
            monic: Vec::new(),
            red: Vec::new(),
            theta: Mutex::new(HashMap::new()),
            images: Mutex::new(HashMap::new()),
            subfield_bases: Mutex::new(HashMap::new()),
            roots: Mutex::new(HashMap::new()),
            joins: Mutex::new(HashMap::new()),
        }
    }
    fn new(gen: Generator, monic: Vec<Rational>) -> Field {
        let n = monic.len();
        let mut red: Vec<Vec<Rational>> = Vec::with_capacity(n.saturating_sub(1));
        let mut row: Vec<Rational> = monic.iter().map(|m| Rational::from(-m)).collect();
        for _ in 0..n.saturating_sub(1) {
            red.push(row.clone());
            // θ·row: shift up, reduce the overflowing θⁿ term
            let top = row.pop().unwrap_or_default();
            row.insert(0, Rational::new());
            for (r, m) in row.iter_mut().zip(&monic) {
                *r -= Rational::from(&top * m);
            }
        }
        Field {
            id: next_field_id(),
            gen,
            n,
            tower: None,
            monic,
            red,
            theta: Mutex::new(HashMap::new()),
            images: Mutex::new(HashMap::new()),
            subfield_bases: Mutex::new(HashMap::new()),
            roots: Mutex::new(HashMap::new()),
            joins: Mutex::new(HashMap::new()),
        }
    }
    /// A rigorous enclosure of θ at `prec` bits.
    fn theta(&self, prec: u32) -> MpInterval {
        let mut cache = self.theta.lock().unwrap_or_else(|e| e.into_inner());
        cache
            .entry(prec)
            .or_insert_with(|| match &self.gen {
                Generator::CosPi(n) => {
                    let x = MpInterval::pi(&prec)
                        .expect("pi encloses")
                        .checked_div(&MpInterval::from_i64(i64::from(*n), &prec))
                        .expect("N > 0");
                    x.cos().expect("cos encloses")
                }
                Generator::Sqrt(r) => MpInterval::from_rug_prec(&Rational::from(r), prec)
                    .sqrt()
                    .expect("r > 1"),
                Generator::Root { s, k } => MpInterval::from_rug_prec(&Rational::from(s), prec)
                    .root(*k)
                    .expect("an odd root"),
                Generator::Adjoin { .. } => {
                    let t = self.tower.as_ref().expect("a tower");
                    let c = eval_in(&t.c, &t.parent, prec);
                    // c > 0 (checked when the tower was built): clip the enclosure at 0
                    let zero = Float::new(prec);
                    let lo = if c.lo().cmp0().is_some_and(|o| o.is_lt()) {
                        zero
                    } else {
                        c.lo().clone()
                    };
                    MpInterval::new(lo, c.hi().clone())
                        .and_then(|c| c.sqrt())
                        .expect("c > 0 has a finite enclosure")
                }
            })
            .clone()
    }
}

/// The fields made so far, one per generator (so that elements of one field share it).
fn registry() -> &'static Mutex<HashMap<Generator, Arc<Field>>> {
    static FIELDS: OnceLock<Mutex<HashMap<Generator, Arc<Field>>>> = OnceLock::new();
    FIELDS.get_or_init(|| Mutex::new(HashMap::new()))
}

fn field_of(gen: Generator, monic: impl FnOnce() -> Vec<Rational>) -> Arc<Field> {
    let mut reg = registry().lock().unwrap_or_else(|e| e.into_inner());
    reg.entry(gen.clone())
        .or_insert_with(|| Arc::new(Field::new(gen, monic())))
        .clone()
}

/// The field K(√c), c given by its coefficients in K (c > 0, not a square in K).
fn tower_field(parent: &Arc<Field>, c: Vec<Rational>) -> Arc<Field> {
    let text = Algebraic::from_coefficients(parent, c.clone()).to_string();
    let gen = Generator::Adjoin {
        parent: parent.id,
        radicand: c.clone(),
        text,
    };
    let mut reg = registry().lock().unwrap_or_else(|e| e.into_inner());
    reg.entry(gen.clone())
        .or_insert_with(|| Arc::new(Field::tower(gen, parent.clone(), c)))
        .clone()
}

/// Euler's φ.
fn totient(mut n: u64) -> u64 {
    let mut out = n;
    let mut p = 2;
    while p * p <= n {
        if n.is_multiple_of(p) {
            while n.is_multiple_of(p) {
                n /= p;
            }
            out -= out / p;
        }
        p += 1;
    }
    if n > 1 {
        out -= out / n;
    }
    out
}

/// The Möbius function μ.
fn moebius(mut n: u64) -> i32 {
    let mut mu = 1;
    let mut p = 2;
    while p * p <= n {
        if n.is_multiple_of(p) {
            n /= p;
            if n.is_multiple_of(p) {
                return 0;
            }
            mu = -mu;
        }
        p += 1;
    }
    if n > 1 {
        mu = -mu;
    }
    mu
}

/// The degree of cos(π/N) over Q: φ(2N)/2 (1 for N ≤ 3, where it is rational).
pub fn cos_degree(n: u32) -> usize {
    ((totient(2 * u64::from(n)) / 2).max(1)) as usize
}

/// Integer polynomial product (coefficients constant term first).
fn poly_mul(a: &[Integer], b: &[Integer]) -> Vec<Integer> {
    let mut out = vec![Integer::new(); a.len() + b.len() - 1];
    for (i, x) in a.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] += Integer::from(x * y);
        }
    }
    out
}

/// Exact quotient of `a` by the monic `b` (the remainder is zero by construction).
fn poly_div_exact(a: &[Integer], b: &[Integer]) -> Vec<Integer> {
    let (n, m) = (a.len(), b.len());
    let mut r = a.to_vec();
    let mut q = vec![Integer::new(); n + 1 - m];
    for i in (0..q.len()).rev() {
        let c = r[i + m - 1].clone();
        for (j, bj) in b.iter().enumerate() {
            r[i + j] -= Integer::from(&c * bj);
        }
        q[i] = c;
    }
    q
}

/// The cyclotomic polynomial Φ_M = Π_{d | M} (x^d − 1)^{μ(M/d)}.
fn cyclotomic(m: u64) -> Vec<Integer> {
    let divisors: Vec<u64> = (1..=m).filter(|d| m.is_multiple_of(*d)).collect();
    let xd = |d: u64| {
        let mut p = vec![Integer::new(); d as usize + 1];
        p[0] = Integer::from(-1);
        p[d as usize] = Integer::from(1);
        p
    };
    let mut num = vec![Integer::from(1)];
    for &d in &divisors {
        if moebius(m / d) == 1 {
            num = poly_mul(&num, &xd(d));
        }
    }
    for &d in &divisors {
        if moebius(m / d) == -1 {
            num = poly_div_exact(&num, &xd(d));
        }
    }
    num
}

/// The monic minimal polynomial of cos(π/N) (low coefficients), from Φ_{2N}: with
/// m = φ(2N)/2, Φ(z)/z^m = c_m + Σ_j c_{m+j}(z^j + z^{−j}), z^j + z^{−j} = V_j(w) for
/// w = z + 1/z = 2cos(π/N) (V_0 = 2, V_1 = w, V_{j+1} = wV_j − V_{j−1}), and x = w/2.
fn cos_min_poly(n: u32) -> Vec<Rational> {
    let phi = cyclotomic(2 * u64::from(n));
    let m = (phi.len() - 1) / 2;
    let mut q = vec![Integer::new(); m + 1];
    let (mut v0, mut v1) = (
        vec![Integer::from(2)],
        vec![Integer::new(), Integer::from(1)],
    );
    q[0] += &phi[m];
    for j in 1..=m {
        for (i, c) in v1.iter().enumerate() {
            q[i] += Integer::from(c * &phi[m + j]);
        }
        // V_{j+1} = w·V_j − V_{j−1}
        let mut next = vec![Integer::new(); v1.len() + 1];
        for (i, c) in v1.iter().enumerate() {
            next[i + 1] += c;
        }
        for (i, c) in v0.iter().enumerate() {
            next[i] -= c;
        }
        v0 = std::mem::replace(&mut v1, next);
    }
    // P(x) = Q(2x), made monic
    let p: Vec<Integer> = q
        .iter()
        .enumerate()
        .map(|(i, c)| Integer::from(c << (i as u32)))
        .collect();
    let lead = p[m].clone();
    p[..m]
        .iter()
        .map(|c| Rational::from((c.clone(), lead.clone())))
        .collect()
}

/// The field Q(cos(π/N)); an error if its degree exceeds [`MAX_DEGREE`].
pub fn cos_field(n: u32) -> Result<Arc<Field>, ArithError> {
    let d = cos_degree(n);
    if d > MAX_DEGREE {
        return Err(ArithError::NotRepresentable {
            what: format!("cos(pi/{n}), of degree {d} over Q,"),
            backend: Algebraic::NAME,
            hint: format!("the algebraic backend takes fields of degree at most {MAX_DEGREE}; use an enclosure backend: --arith interval or --arith mpi:BITS"),
        });
    }
    Ok(field_of(Generator::CosPi(n), || cos_min_poly(n)))
}

/// One generator per field Q(s^(1/m)) for a prime m: with s = Π p^{a_p} (0 < a_p < m,
/// factored by trial division), a the exponent of s's smallest prime and b = a^{−1} mod m,
/// t = Π p^{a_p·b mod m} gives the same field, and s^(1/m) = scale·(t^(1/m))^a with a
/// rational scale (s ≡ t^a modulo m-th powers). So `root(4,3)` = `root(2,3)^2`. Returns
/// (t, a, scale); (s, 1, 1) for composite m or an s not factored below 10⁶.
fn canonical_radicand(s: &Integer, m: u32) -> (Integer, u32, Rational) {
    let keep = (s.clone(), 1, Rational::from(1));
    if !(2..m)
        .take_while(|x| x * x <= m)
        .all(|x| !m.is_multiple_of(x))
    {
        return keep;
    }
    let mut rest = s.clone();
    let mut factors: Vec<(u32, u32)> = Vec::new();
    let mut p = 2u32;
    while Integer::from(p) * p <= rest {
        if p > 1_000_000 {
            return keep;
        }
        let mut e = 0;
        while rest.is_divisible_u(p) {
            rest.div_exact_u_mut(p);
            e += 1;
        }
        if e > 0 {
            factors.push((p, e));
        }
        p += 1;
    }
    let big = (rest != 1).then(|| rest.clone());
    let a = factors
        .iter()
        .map(|f| f.1 % m)
        .find(|r| *r > 0)
        .unwrap_or(1);
    let b = (1..m).find(|b| (a * b) % m == 1).unwrap_or(1);
    // t = Π p^{a_p·b mod m}; s = t^a·Π p^{m·c_p}, c_p = (a_p − a·(a_p·b mod m))/m
    let (mut t, mut scale) = (Integer::from(1), Rational::from(1));
    let mut entries: Vec<(Integer, u32)> = factors
        .iter()
        .map(|&(p, e)| (Integer::from(p), e))
        .collect();
    if let Some(q) = big {
        entries.push((q, 1));
    }
    for (q, e) in &entries {
        use rug::ops::Pow;
        let eb = ((e % m) * b) % m;
        t *= Integer::from(q.pow(eb));
        let c = (i64::from(*e) - i64::from(a) * i64::from(eb)) / i64::from(m);
        let qc = Rational::from(Integer::from(q.pow(c.unsigned_abs() as u32)));
        scale *= if c >= 0 { qc } else { qc.recip() };
    }
    (t, a, scale)
}

/// Q(s^(1/k)) (k odd, x^k − s irreducible), of degree k.
fn root_field(s: &Integer, k: u32) -> Arc<Field> {
    let gen = Generator::Root { s: s.clone(), k };
    field_of(gen, || {
        let mut monic = vec![Rational::new(); k as usize];
        monic[0] = Rational::from(-s.clone());
        monic
    })
}

/// The real k-th root of a rational q (k ≥ 1; q ≥ 0 when k is even): |q|^(1/k) =
/// (n·d^(k−1))^(1/k)/d for q = n/d; with e the largest divisor of k for which
/// N = n·d^(k−1) is a perfect e-th power, s = N^(1/e) and k' = k/e, the polynomial
/// x^k' − s is irreducible (Capelli's theorem: s > 0 is no p-th power for a prime
/// p | k'). Small primes' k'-th powers leave s (trial division up to 1000). For
/// k' = 2^j·m, m odd, the root is the j-th square root of s^(1/m) ∈ Q(s^(1/m)): each
/// square root is a genuine quadratic extension, which the descent confirms.
fn rational_kth_root(q: &Rational, k: u32) -> Result<Algebraic, ArithError> {
    use rug::ops::Pow;
    let (n, d) = (Integer::from(q.numer().abs_ref()), q.denom().clone());
    let big_n = n * Integer::from((&d).pow(k - 1));
    let e = (1..=k)
        .rev()
        .filter(|e| k.is_multiple_of(*e))
        .find(|&e| {
            let r = Integer::from(big_n.root_ref(e));
            Integer::from((&r).pow(e)) == big_n
        })
        .unwrap_or(1);
    let (mut s, k1) = (big_n.root(e), k / e);
    let (j, m) = (k1.trailing_zeros(), k1 >> k1.trailing_zeros());
    // small primes' m-th powers out of s (only when m > 1: sqrt takes care of squares)
    let mut coef = Integer::from(1);
    if m > 1 {
        for p in (2u32..1000).filter(|p| {
            (2..*p)
                .take_while(|x| x * x <= *p)
                .all(|x| !p.is_multiple_of(x))
        }) {
            let pm = Integer::from(p).pow(m);
            while s.is_divisible(&pm) {
                s.div_exact_mut(&pm);
                coef *= p;
            }
        }
    }
    let inner = if m == 1 || s == 1 {
        Algebraic::rational(Rational::from(s))
    } else {
        if m as usize > max_degree() {
            return Err(ArithError::NotRepresentable {
                what: format!("root({q}, {k}), of degree {m} over Q,"),
                backend: Algebraic::NAME,
                hint: format!("the algebraic backend builds fields of degree at most {}; use an enclosure backend: --arith mpi:BITS", max_degree()),
            });
        }
        let (t, a, scale) = canonical_radicand(&s, m);
        let mut c = vec![Rational::new(); m as usize];
        c[a as usize] = scale;
        Algebraic::from_coefficients(&root_field(&t, m), c)
    };
    // N^(1/k) = (coef·s^(1/m))^(1/2^j)
    let mut r = inner * &Algebraic::rational(Rational::from(coef));
    for _ in 0..j {
        r = r.sqrt()?;
    }
    let r = r * &Algebraic::rational(Rational::from((1, d)));
    Ok(if q.cmp0().is_lt() { -r } else { r })
}

fn sqrt_field(r: &Integer) -> Arc<Field> {
    field_of(Generator::Sqrt(r.clone()), || {
        vec![Rational::from(-r.clone()), Rational::new()]
    })
}

/// An element of Q(θ), exactly.
///
/// Invariant: `f` is `None` exactly for rational elements, which have one coefficient;
/// otherwise `c` has `deg P` coefficients and some `c[i]`, `i ≥ 1`, is nonzero.
#[derive(Clone, Debug)]
///
/// # Example
///
/// ```
/// use impactkit::arith::{Algebraic, Scalar, Sign};
/// use impactkit::lang::eval_str;
/// let c = eval_str::<Algebraic>("cos(pi/16)^2 + sin(pi/16)^2 - 1", &()).unwrap();
/// assert_eq!(c.sign(), Sign::Zero);
/// let t = eval_str::<Algebraic>("tan(pi/16) - 1/5", &()).unwrap();
/// assert_eq!(t.sign(), Sign::Negative);
/// ```
pub struct Algebraic {
    c: Vec<Rational>,
    f: Option<Arc<Field>>,
}

impl Algebraic {
    /// The rational `q`.
    pub fn rational(q: Rational) -> Self {
        Algebraic {
            c: vec![q],
            f: None,
        }
    }
    /// The element Σ c_i θ^i of `field` (reduced; `c` has at most `deg P` entries).
    pub fn from_coefficients(field: &Arc<Field>, mut c: Vec<Rational>) -> Self {
        c.resize(field.degree(), Rational::new());
        let mut x = Algebraic {
            c,
            f: Some(field.clone()),
        };
        x.settle();
        x
    }
    /// The generator θ of `field` as an element.
    pub fn generator(field: &Arc<Field>) -> Self {
        Self::from_coefficients(field, vec![Rational::new(), Rational::from(1)])
    }
    /// The coefficients (constant term first) and the field (`None` for a rational).
    pub fn parts(&self) -> (&[Rational], Option<&Arc<Field>>) {
        (&self.c, self.f.as_ref())
    }
    /// The value as a rational, if it is one.
    pub fn as_rational(&self) -> Option<&Rational> {
        self.f.is_none().then(|| &self.c[0])
    }
    /// `cos(π/N)`.
    pub fn cos_pi_over(n: u32) -> Result<Self, ArithError> {
        match n {
            1 => Ok(Self::rational(Rational::from(-1))),
            2 => Ok(Self::rational(Rational::new())),
            3 => Ok(Self::rational(Rational::from((1, 2)))),
            _ => Ok(Self::generator(&cos_field(n)?)),
        }
    }
    /// `cos(qπ)` for a rational q, by cos(aπ/b) = T_a(cos(π/b)).
    pub fn cos_pi(q: &Rational) -> Result<Self, ArithError> {
        let b = q.denom().clone();
        let two_b = Integer::from(&b << 1u32);
        let mut a = Integer::from(q.numer() % &two_b);
        if a.cmp0().is_lt() {
            a += &two_b;
        }
        if a > b {
            a = Integer::from(&two_b - &a);
        }
        let n = b
            .to_u32()
            .filter(|&n| cos_degree(n) <= MAX_DEGREE)
            .ok_or_else(|| ArithError::NotRepresentable {
                what: format!("cos(({q})*pi), of degree above {MAX_DEGREE} over Q,"),
                backend: Self::NAME,
                hint: "use an enclosure backend: --arith interval or --arith mpi:BITS".into(),
            })?;
        let theta = Self::cos_pi_over(n)?;
        let k = a.to_u32().expect("a ≤ b fits");
        Ok(chebyshev(&theta, k))
    }
    /// `sin(qπ) = cos((1/2 − q)π)`.
    pub fn sin_pi(q: &Rational) -> Result<Self, ArithError> {
        Self::cos_pi(&(Rational::from((1, 2)) - q))
    }
    /// Restores the invariant: an element of K(√c) with no √c part is written in K, one
    /// with no part beyond the constant is a rational.
    fn settle(&mut self) {
        while let Some(f) = &self.f {
            match &f.tower {
                Some(t) => {
                    let n = t.parent.n;
                    if !is_zero(&self.c[n..]) {
                        return;
                    }
                    let parent = t.parent.clone();
                    self.c.truncate(n);
                    self.f = Some(parent);
                }
                None => {
                    if is_zero(&self.c[1..]) {
                        self.c.truncate(1);
                        self.f = None;
                    }
                    return;
                }
            }
        }
    }
    /// The element `x` written in the field `f` that contains its own (not settled: an
    /// operand for arithmetic in `f`).
    fn lift(x: &Algebraic, f: &Arc<Field>) -> Algebraic {
        Algebraic {
            c: embed(x, f),
            f: Some(f.clone()),
        }
    }
    fn degree_two_parts(&self) -> Option<(Rational, Rational, Integer)> {
        let f = self.f.as_ref()?;
        let (a, b) = (&self.c[0], &self.c[1]);
        // θ = √2/2, √3/2, (1 + √5)/4, √r
        match f.gen {
            Generator::CosPi(4) => Some((a.clone(), Rational::from(b / 2u32), Integer::from(2))),
            Generator::CosPi(6) => Some((a.clone(), Rational::from(b / 2u32), Integer::from(3))),
            Generator::CosPi(5) => {
                let q = Rational::from(b / 4u32);
                Some((Rational::from(a + &q), q, Integer::from(5)))
            }
            Generator::Sqrt(ref r) => Some((a.clone(), b.clone(), r.clone())),
            _ => None,
        }
    }
    /// The same value in the quadratic backend, for elements of degree-2 fields (also
    /// when they are written in a larger field: 4 + 2√2 in Q(cos(π/16))).
    pub fn to_quadratic(&self) -> Option<Quadratic> {
        match &self.f {
            None => Some(Quadratic::rational(self.c[0].clone())),
            Some(_) => {
                let s = self.simplest();
                let (a, b, d) = s.degree_two_parts()?;
                Quadratic::new(a, b, &d).ok()
            }
        }
    }
    /// The same value in the smallest field Q(cos(π/m)), m | N, that holds it (itself when
    /// there is none): a ∈ Q(cos(π/m)) iff a = b(T_{N/m}(θ)) for some b of degree below
    /// that of cos(π/m), a linear system over Q.
    pub fn simplest(&self) -> Algebraic {
        let Some(f) = &self.f else {
            return self.clone();
        };
        let Generator::CosPi(n) = f.gen else {
            return self.clone();
        };
        let mut ms: Vec<u32> = (4..n)
            .filter(|m| n.is_multiple_of(*m) && cos_degree(*m) < f.degree())
            .collect();
        ms.sort_by_key(|&m| (cos_degree(m), m));
        for m in ms {
            let Ok(sub) = cos_field(m) else { continue };
            let cols = subfield_basis(f, &sub, m);
            if let Some(b) = solve_exact(&cols, &self.c) {
                return Algebraic::from_coefficients(&sub, b);
            }
        }
        self.clone()
    }
    /// A rigorous enclosure at `prec` bits.
    pub fn to_mp_interval(&self, prec: u32) -> MpInterval {
        match &self.f {
            None => MpInterval::from_rug_prec(&self.c[0], prec),
            Some(f) => eval_in(&self.c, f, prec),
        }
    }

    // In-place ring operations: `self` is updated, `rhs` only read.
    fn add_assign_ref(&mut self, rhs: &Algebraic, sign: i8) {
        match (&self.f, &rhs.f) {
            (_, None) => add_signed(&mut self.c[0], &rhs.c[0], sign),
            (Some(p), Some(q)) if Arc::ptr_eq(p, q) => {
                for (x, y) in self.c.iter_mut().zip(&rhs.c) {
                    add_signed(x, y, sign);
                }
                self.settle();
            }
            _ => {
                let (f, mut a, b) = unify(self, rhs);
                for (x, y) in a.iter_mut().zip(&b) {
                    add_signed(x, y, sign);
                }
                *self = Self::from_coefficients(&f, a);
            }
        }
    }
    fn mul_assign_ref(&mut self, rhs: &Algebraic) {
        match (&self.f, &rhs.f) {
            (_, None) => {
                if rhs.c[0].cmp0().is_eq() {
                    *self = Self::rational(Rational::new());
                } else {
                    for x in &mut self.c {
                        *x *= &rhs.c[0];
                    }
                }
            }
            (None, Some(_)) => {
                let q = std::mem::take(&mut self.c[0]);
                *self = rhs.clone();
                self.mul_assign_ref(&Self::rational(q));
            }
            (Some(p), Some(q)) if Arc::ptr_eq(p, q) => {
                let f = p.clone();
                self.c = mul_in(&self.c, &rhs.c, &f);
                self.settle();
            }
            _ => {
                let (f, a, b) = unify(self, rhs);
                *self = Self::from_coefficients(&f, mul_in(&a, &b, &f));
            }
        }
    }
    fn neg_in_place(&mut self) {
        for x in &mut self.c {
            x.neg_assign_rug();
        }
    }
    /// The inverse of a nonzero element (extended Euclid modulo P).
    fn inverse(&self) -> Result<Self, ArithError> {
        match &self.f {
            None => {
                if self.c[0].cmp0().is_eq() {
                    return Err(ArithError::DivisionByZero);
                }
                Ok(Self::rational(Rational::from(self.c[0].recip_ref())))
            }
            Some(f) => {
                let s = inverse_in(&self.c, f).ok_or_else(|| {
                    ArithError::Domain(format!("{self} has no inverse in Q({})", f.gen))
                })?;
                Ok(Self::from_coefficients(f, s))
            }
        }
    }
}

trait NegAssignRug {
    fn neg_assign_rug(&mut self);
}
impl NegAssignRug for Rational {
    fn neg_assign_rug(&mut self) {
        rug::ops::NegAssign::neg_assign(self);
    }
}

fn add_signed(x: &mut Rational, y: &Rational, sign: i8) {
    if sign >= 0 {
        *x += y;
    } else {
        *x -= y;
    }
}

/// T_k(x) by T_{j+1} = 2x·T_j − T_{j−1}.
fn chebyshev(x: &Algebraic, k: u32) -> Algebraic {
    let one = Algebraic::rational(Rational::from(1));
    if k == 0 {
        return one;
    }
    let two_x = x.mul_r(&Algebraic::rational(Rational::from(2)));
    let (mut t0, mut t1) = (one, x.clone());
    for _ in 1..k {
        let t2 = two_x.mul_r(&t1) - &t0;
        t0 = std::mem::replace(&mut t1, t2);
    }
    t1
}

/// The powers of the image of cos(π/m) in `f` (cached in `f`).
fn subfield_basis(f: &Arc<Field>, sub: &Field, m: u32) -> Arc<Vec<Vec<Rational>>> {
    if let Some(b) = f
        .subfield_bases
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&m)
    {
        return b.clone();
    }
    let Generator::CosPi(n) = f.gen else {
        unreachable!("subfields of fields of cosines only")
    };
    let image = chebyshev(&Algebraic::generator(f), n / m);
    let mut cols = Vec::with_capacity(sub.degree());
    let mut power = Algebraic::rational(Rational::from(1));
    for _ in 0..sub.degree() {
        cols.push(embed(&power, f));
        power = power * &image;
    }
    let cols = Arc::new(cols);
    f.subfield_bases
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(m, cols.clone());
    cols
}

/// The rationals b with Σ b_j·cols[j] = rhs, if the system is consistent (the columns are
/// independent: powers of a generator of a subfield).
fn solve_exact(cols: &[Vec<Rational>], rhs: &[Rational]) -> Option<Vec<Rational>> {
    let (rows, k) = (rhs.len(), cols.len());
    let mut a: Vec<Vec<Rational>> = (0..rows)
        .map(|i| {
            let mut r: Vec<Rational> = cols.iter().map(|c| c[i].clone()).collect();
            r.push(rhs[i].clone());
            r
        })
        .collect();
    let mut pivots = Vec::with_capacity(k);
    let mut row = 0;
    for col in 0..k {
        let p = (row..rows).find(|&i| a[i][col].cmp0().is_ne())?;
        a.swap(row, p);
        let inv = Rational::from(a[row][col].recip_ref());
        for x in &mut a[row] {
            *x *= &inv;
        }
        for i in 0..rows {
            if i != row && a[i][col].cmp0().is_ne() {
                let factor = a[i][col].clone();
                let pivot_row = a[row].clone();
                for (x, y) in a[i].iter_mut().zip(&pivot_row) {
                    *x -= Rational::from(&factor * y);
                }
            }
        }
        pivots.push(row);
        row += 1;
    }
    // consistent iff every row below the pivots has a zero right-hand side
    if a[row..].iter().any(|r| r[k].cmp0().is_ne()) {
        return None;
    }
    Some(pivots.iter().map(|&r| a[r][k].clone()).collect())
}

fn is_zero(c: &[Rational]) -> bool {
    c.iter().all(|x| x.cmp0().is_eq())
}

fn add_to(a: &mut [Rational], b: &[Rational], sign: i8) {
    for (x, y) in a.iter_mut().zip(b) {
        add_signed(x, y, sign);
    }
}

/// The product of two elements of `f` given by their coefficients: modulo P, or in
/// K(√c) as (u₁u₂ + c·v₁v₂) + (u₁v₂ + u₂v₁)√c.
fn mul_in(a: &[Rational], b: &[Rational], f: &Field) -> Vec<Rational> {
    let Some(t) = &f.tower else {
        return mul_reduce(a, b, f);
    };
    if is_zero(a) || is_zero(b) {
        return vec![Rational::new(); f.n];
    }
    let (k, n) = (&t.parent, t.parent.n);
    let ((u1, v1), (u2, v2)) = (a.split_at(n), b.split_at(n));
    let (v1_zero, v2_zero) = (is_zero(v1), is_zero(v2));
    let mut lo = mul_in(u1, u2, k);
    let mut hi = vec![Rational::new(); n];
    if !v1_zero && !v2_zero {
        add_to(&mut lo, &mul_in(&mul_in(v1, v2, k), &t.c, k), 1);
    }
    if !v2_zero {
        add_to(&mut hi, &mul_in(u1, v2, k), 1);
    }
    if !v1_zero {
        add_to(&mut hi, &mul_in(v1, u2, k), 1);
    }
    lo.extend(hi);
    lo
}

/// The inverse of a nonzero element of `f`: by Euclid modulo P, or in K(√c) as
/// (u − v√c)/(u² − c·v²), whose denominator is nonzero because √c ∉ K.
fn inverse_in(a: &[Rational], f: &Field) -> Option<Vec<Rational>> {
    let Some(t) = &f.tower else {
        let mut s = inverse_mod(a, &f.min_poly()?)?;
        s.resize(f.n, Rational::new());
        return Some(s);
    };
    let (k, n) = (&t.parent, t.parent.n);
    let (u, v) = a.split_at(n);
    let mut d = mul_in(u, u, k);
    add_to(&mut d, &mul_in(&mul_in(v, v, k), &t.c, k), -1);
    let d_inv = inverse_in(&d, k)?;
    let mut out = mul_in(u, &d_inv, k);
    let mut hi = mul_in(v, &d_inv, k);
    for x in &mut hi {
        x.neg_assign_rug();
    }
    out.extend(hi);
    Some(out)
}

/// A rigorous enclosure of the element of `f` with coefficients `a`.
fn eval_in(a: &[Rational], f: &Field, prec: u32) -> MpInterval {
    let Some(t) = &f.tower else {
        return horner(a, &f.theta(prec), prec);
    };
    let (u, v) = a.split_at(t.parent.n);
    let lo = eval_in(u, &t.parent, prec);
    if is_zero(v) {
        return lo;
    }
    lo + &(eval_in(v, &t.parent, prec) * &f.theta(prec))
}

/// Schoolbook product of two coefficient vectors, reduced modulo P.
fn mul_reduce(a: &[Rational], b: &[Rational], f: &Field) -> Vec<Rational> {
    let n = f.degree();
    let mut prod = vec![Rational::new(); 2 * n - 1];
    let mut t = Rational::new();
    for (i, x) in a.iter().enumerate() {
        if x.cmp0().is_eq() {
            continue;
        }
        for (j, y) in b.iter().enumerate() {
            if y.cmp0().is_ne() {
                rug::Assign::assign(&mut t, x * y);
                prod[i + j] += &t;
            }
        }
    }
    let high = prod.split_off(n);
    for (h, row) in high.iter().zip(&f.red) {
        if h.cmp0().is_eq() {
            continue;
        }
        for (p, r) in prod.iter_mut().zip(row) {
            if r.cmp0().is_ne() {
                rug::Assign::assign(&mut t, h * r);
                *p += &t;
            }
        }
    }
    prod
}

fn trim(p: &mut Vec<Rational>) {
    while p.len() > 1 && p.last().is_some_and(|x| x.cmp0().is_eq()) {
        p.pop();
    }
}

/// `(q, r)` with `a = q·b + r`, deg r < deg b (b trimmed, nonzero).
fn divrem(a: &[Rational], b: &[Rational]) -> (Vec<Rational>, Vec<Rational>) {
    let mut r = a.to_vec();
    trim(&mut r);
    let db = b.len() - 1;
    if r.len() - 1 < db {
        return (vec![Rational::new()], r);
    }
    let mut q = vec![Rational::new(); r.len() - db];
    let lead = &b[db];
    for i in (0..q.len()).rev() {
        let c = Rational::from(&r[i + db] / lead);
        if c.cmp0().is_ne() {
            for (j, bj) in b.iter().enumerate() {
                r[i + j] -= Rational::from(&c * bj);
            }
        }
        q[i] = c;
    }
    r.truncate(db.max(1));
    trim(&mut r);
    (q, r)
}

fn poly_sub_mul(a: &[Rational], q: &[Rational], b: &[Rational]) -> Vec<Rational> {
    let mut out = a.to_vec();
    out.resize(a.len().max(q.len() + b.len() - 1), Rational::new());
    for (i, x) in q.iter().enumerate() {
        for (j, y) in b.iter().enumerate() {
            out[i + j] -= Rational::from(x * y);
        }
    }
    trim(&mut out);
    out
}

/// `s` with `s·a ≡ 1 (mod p)`, by the extended Euclidean algorithm; `None` when
/// gcd(a, p) is not constant (never for an irreducible p and a ≢ 0).
fn inverse_mod(a: &[Rational], p: &[Rational]) -> Option<Vec<Rational>> {
    let mut r0 = p.to_vec();
    let mut r1 = a.to_vec();
    trim(&mut r1);
    let (mut s0, mut s1) = (vec![Rational::new()], vec![Rational::from(1)]);
    while !(r1.len() == 1 && r1[0].cmp0().is_eq()) {
        crate::budget::checkpoint();
        let (q, r) = divrem(&r0, &r1);
        let s = poly_sub_mul(&s0, &q, &s1);
        r0 = std::mem::replace(&mut r1, r);
        s0 = std::mem::replace(&mut s1, s);
    }
    if r0.len() != 1 {
        return None;
    }
    let c = r0[0].clone();
    Some(s0.into_iter().map(|x| x / &c).collect())
}

/// a(θ) by Horner's rule in MPFR intervals.
fn horner(c: &[Rational], theta: &MpInterval, prec: u32) -> MpInterval {
    let mut acc = MpInterval::from_rug_prec(&c[c.len() - 1], prec);
    for x in c[..c.len() - 1].iter().rev() {
        acc = acc * theta + &MpInterval::from_rug_prec(x, prec);
    }
    acc
}

/// The common field of two elements and both coefficient vectors in it. Two fields
/// Q(cos(π/m)), Q(cos(π/n)) meet in Q(cos(π/lcm)). Any other pair cannot meet in this
/// backend: the operators, which return no `Result`, then unwind with a [`FieldMismatch`]
/// payload, which the command line and the Python binding report as bad input (`--arith`)
/// and [`catch_field_mismatch`] turns into an error. Values of a language expression are
/// checked with [`Scalar::compatible`] before they meet; a law's inputs from different
/// fields first meet inside the law.
fn unify(x: &Algebraic, y: &Algebraic) -> (Arc<Field>, Vec<Rational>, Vec<Rational>) {
    let f = common_field(x, y).unwrap_or_else(|e| std::panic::panic_any(FieldMismatch(e)));
    (f.clone(), embed(x, &f), embed(y, &f))
}

/// The unwinding payload of an operation between two elements whose number fields the
/// algebraic backend cannot join (Q(cos(π/28)) and Q(cos(π/9)): their compositum is not
/// one of the fields it builds). It holds the error to report, a
/// [`ArithError::NotRepresentable`] naming both fields.
#[derive(Clone, Debug)]
pub struct FieldMismatch(pub ArithError);

impl FieldMismatch {
    /// The one-line message of bad input: the option is `--arith`, the choice of a
    /// backend that cannot hold the run's values.
    pub fn line(&self) -> String {
        format!("--arith: {}", self.0)
    }
}

/// Runs `f`, turning an unwinding [`FieldMismatch`] into its error; other panics go on
/// unwinding. (The payload survives `rayon`'s pools, which resume a worker's panic in the
/// caller.)
pub fn catch_field_mismatch<T>(f: impl FnOnce() -> T) -> Result<T, ArithError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => Ok(v),
        Err(e) => match e.downcast::<FieldMismatch>() {
            Ok(m) => Err(m.0),
            Err(e) => std::panic::resume_unwind(e),
        },
    }
}

fn common_field(x: &Algebraic, y: &Algebraic) -> Result<Arc<Field>, ArithError> {
    match (&x.f, &y.f) {
        (Some(p), None) | (None, Some(p)) => Ok(p.clone()),
        (None, None) => Err(ArithError::Domain("two rationals have no field".into())),
        (Some(p), Some(q)) => join(p, q),
    }
}

/// Is `g` a subfield of `f` by construction (the same field, a field below a tower, a
/// field of cosines Q(cos(π/m)) in Q(cos(π/n)) with m | n)?
fn contains(f: &Field, g: &Field) -> bool {
    if f.id == g.id {
        return true;
    }
    if let Some(t) = &f.tower {
        return contains(&t.parent, g);
    }
    matches!((&f.gen, &g.gen), (Generator::CosPi(n), Generator::CosPi(m)) if n % m == 0)
}

/// The smallest field this backend builds that holds both: Q(cos(π/lcm)) for two fields
/// of cosines; for a tower K(√c), the join J of the other field with K, and J itself if
/// c is a square in J, else J(√c). The joins are cached in `p`.
fn join(p: &Arc<Field>, q: &Arc<Field>) -> Result<Arc<Field>, ArithError> {
    if contains(p, q) {
        return Ok(p.clone());
    }
    if contains(q, p) {
        return Ok(q.clone());
    }
    if let Some(j) = p.joins.lock().unwrap_or_else(|e| e.into_inner()).get(&q.id) {
        return Ok(j.clone());
    }
    let j = match (&p.tower, &q.tower) {
        (None, None) => match (&p.gen, &q.gen) {
            (Generator::CosPi(m), Generator::CosPi(n)) => {
                let l = u64::from(*m) / gcd(u64::from(*m), u64::from(*n)) * u64::from(*n);
                match u32::try_from(l) {
                    Ok(l) if cos_degree(l) <= MAX_DEGREE => cos_field(l)?,
                    _ => return Err(mismatch(&p.gen, &q.gen)),
                }
            }
            _ => {
                // one of them is Q(√d): adjoin √d to the other
                let (other, d) = match (quad(p), quad(q)) {
                    (_, Some(Quad::Degree2(d))) => (p, d),
                    (Some(Quad::Degree2(d)), _) => (q, d),
                    _ => return Err(mismatch(&p.gen, &q.gen)),
                };
                let d = Algebraic::lift(&Algebraic::rational(Rational::from(d)), other);
                match sqrt_in(&d, Some(other)) {
                    Ok(Some(_)) => other.clone(),
                    Ok(None) => tower_field(other, d.c),
                    Err(()) => return Err(mismatch(&p.gen, &q.gen)),
                }
            }
        },
        (_, Some(t)) => {
            let j = join(p, &t.parent)?;
            let c = Algebraic::lift(&Algebraic::from_coefficients(&t.parent, t.c.clone()), &j);
            match sqrt_in(&c, Some(&j)) {
                Ok(Some(_)) => j,
                Ok(None) => tower_field(&j, c.c),
                Err(()) => return Err(mismatch(&p.gen, &q.gen)),
            }
        }
        (Some(_), None) => return join(q, p),
    };
    p.joins
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(q.id, j.clone());
    Ok(j)
}

/// The c of a field Q(√c) or K(√c) (`None` for other fields).
fn radicand(g: &Field) -> Option<Algebraic> {
    match (&g.tower, quad(g)) {
        (Some(t), _) => Some(Algebraic::from_coefficients(&t.parent, t.c.clone())),
        (None, Some(Quad::Degree2(d))) => Some(Algebraic::rational(Rational::from(d))),
        _ => None,
    }
}

/// The image in `f` of √c, for a field `g` = Q(√c) or K(√c) inside `f`: the positive
/// square root of c in `f`.
fn root_image(g: &Field, f: &Arc<Field>) -> Algebraic {
    if let Some(r) = f.roots.lock().unwrap_or_else(|e| e.into_inner()).get(&g.id) {
        return r.clone();
    }
    let c = Algebraic::lift(&radicand(g).expect("a quadratic field"), f);
    let r = match sqrt_in(&c, Some(f)) {
        Ok(Some(r)) => r,
        _ => panic!("impactkit bug: sqrt({}) not found in {}", g.gen, f.gen),
    };
    f.roots
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(g.id, r.clone());
    r
}

/// How a field is a quadratic extension of a smaller one (or of Q).
enum Quad {
    /// Q(√d) (θ = √2/2, √3/2, (1 + √5)/4 or √r).
    Degree2(Integer),
    /// Q(cos(π/N)) over Q(cos(π/m)), N = 2m: θ = √((1 + cos(π/m))/2).
    Halving(u32),
    /// K(√c).
    Tower,
}

fn quad(f: &Field) -> Option<Quad> {
    if f.tower.is_some() {
        return Some(Quad::Tower);
    }
    match &f.gen {
        Generator::CosPi(4) => Some(Quad::Degree2(Integer::from(2))),
        Generator::CosPi(6) => Some(Quad::Degree2(Integer::from(3))),
        Generator::CosPi(5) => Some(Quad::Degree2(Integer::from(5))),
        Generator::Sqrt(r) => Some(Quad::Degree2(r.clone())),
        Generator::CosPi(n) if n % 2 == 0 && cos_degree(*n) == 2 * cos_degree(n / 2) => {
            Some(Quad::Halving(n / 2))
        }
        _ => None,
    }
}

/// `f` as F(√e): the base F (`None` for Q), e, √e in `f`, and the parts (u, v) of `x`
/// (an element of a subfield of `f`) with x = u + v√e.
type Parts = (
    Option<Arc<Field>>,
    Algebraic,
    Algebraic,
    Algebraic,
    Algebraic,
);

fn quadratic_parts(x: &Algebraic, f: &Arc<Field>, how: Quad) -> Result<Parts, ArithError> {
    let one = || Algebraic::rational(Rational::from(1));
    let x = Algebraic::lift(x, f);
    Ok(match how {
        Quad::Tower => {
            let t = f.tower.as_ref().expect("a tower");
            let n = t.parent.n;
            let mut root = vec![Rational::new(); f.n];
            root[n] = Rational::from(1);
            (
                Some(t.parent.clone()),
                Algebraic::from_coefficients(&t.parent, t.c.clone()),
                Algebraic {
                    c: root,
                    f: Some(f.clone()),
                },
                Algebraic::from_coefficients(&t.parent, x.c[..n].to_vec()),
                Algebraic::from_coefficients(&t.parent, x.c[n..].to_vec()),
            )
        }
        Quad::Degree2(d) => {
            let (u, v, _) = x.degree_two_parts().expect("a field of degree 2");
            let d = Rational::from(d);
            (
                None,
                Algebraic::rational(d.clone()),
                sqrt_rational(&d)?,
                Algebraic::rational(u),
                Algebraic::rational(v),
            )
        }
        Quad::Halving(m) => {
            // θ² = e ∈ Q(cos(π/m)): the even powers of θ give u, the odd ones v
            let base = cos_field(m)?;
            let e = (Algebraic::generator(&base) + &one())
                * &Algebraic::rational(Rational::from((1, 2)));
            let horner_e = |start: usize| {
                let mut acc = Algebraic::rational(Rational::new());
                for c in x.c.iter().skip(start).step_by(2).rev() {
                    acc = acc * &e + &Algebraic::rational(c.clone());
                }
                acc
            };
            let (u, v) = (horner_e(0), horner_e(1));
            (Some(base), e, Algebraic::generator(f), u, v)
        }
    })
}

/// The non-negative square root of `x` in the field `f` (`None`: Q), which holds x:
/// `Ok(Some(root))`, `Ok(None)` when x is not a square in `f`, `Err(())` when this
/// backend cannot decide it (a field of cosines that is no tower of quadratic fields).
/// By descent over f = F(√e), see the module comment.
fn sqrt_in(x: &Algebraic, f: Option<&Arc<Field>>) -> Result<Option<Algebraic>, ()> {
    match x.sign() {
        Sign::Zero => return Ok(Some(Algebraic::rational(Rational::new()))),
        Sign::Negative => return Ok(None),
        Sign::Positive => {}
        Sign::Unknown => return Err(()),
    }
    let Some(f) = f else {
        let q = x.as_rational().ok_or(())?;
        return Ok(rational_sqrt(q).map(Algebraic::rational));
    };
    let Some(how) = quad(f) else {
        // a field of cosines of odd index or a field Q(s^(1/k)): the rationals whose root
        // it holds; a field of odd degree has no quadratic subfield, so it holds no other
        let rational = (x.c.len() == 1 || is_zero(&x.c[1..])).then(|| x.c[0].clone());
        return match rational.as_ref().map(sqrt_rational) {
            Some(Ok(r)) if r.f.as_ref().is_none_or(|g| contains(f, g)) => Ok(Some(r)),
            Some(Ok(_)) if f.n % 2 == 1 => Ok(None),
            Some(_) => Err(()),
            None => monomial_sqrt(x, f),
        };
    };
    let (base, e, root_e, u, v) = quadratic_parts(x, f, how).map_err(|_| ())?;
    let base = base.as_ref();
    if v.sign() == Sign::Zero {
        if let Some(r) = sqrt_in(&u, base)? {
            return Ok(Some(r));
        }
        let w = u.checked_div(&e).map_err(|_| ())?;
        return Ok(sqrt_in(&w, base)?.map(|r| r * &root_e));
    }
    let norm = u.square() - &(e * &v.square());
    let Some(n) = sqrt_in(&norm, base)? else {
        return Ok(None);
    };
    let half = Algebraic::rational(Rational::from((1, 2)));
    for t in [u.clone() + &n, u - &n] {
        let Some(x0) = sqrt_in(&(t * &half), base)? else {
            continue;
        };
        if x0.sign() == Sign::Zero {
            continue;
        }
        let y = v
            .checked_div(&(x0.clone() * &Algebraic::rational(Rational::from(2))))
            .map_err(|_| ())?;
        let r = x0 + &(y * &root_e);
        return Ok(Some(if r.sign() == Sign::Negative { -r } else { r }));
    }
    Ok(None)
}

/// √x for a monomial x = c·θ^i (c > 0 rational, i ≥ 1) of Q(θ), θ = s^(1/k), k odd:
/// for even i, x = c·(θ^{i/2})²; for odd i, x = (c/s)·(θ^{(i+k)/2})². So x is a square
/// iff c, resp. c/s, is a square in the field, which (odd degree) means in Q. Other
/// elements and fields: `Err(())`, not decided.
fn monomial_sqrt(x: &Algebraic, f: &Arc<Field>) -> Result<Option<Algebraic>, ()> {
    let Generator::Root { s, k } = &f.gen else {
        return Err(());
    };
    let x = Algebraic::lift(x, f);
    let mut terms = x.c.iter().enumerate().filter(|(_, c)| c.cmp0().is_ne());
    let (Some((i, c)), None) = (terms.next(), terms.next()) else {
        return Err(());
    };
    let (c, half) = if i % 2 == 0 {
        (c.clone(), i / 2)
    } else {
        (Rational::from(c / s), (i + *k as usize) / 2)
    };
    let Some(r) = rational_sqrt(&c) else {
        return Ok(None);
    };
    let mut coefs = vec![Rational::new(); f.n];
    coefs[half] = r;
    Ok(Some(Algebraic::from_coefficients(f, coefs)))
}

/// √q for a rational q that is a rational square.
fn rational_sqrt(q: &Rational) -> Option<Rational> {
    (q.cmp0().is_ge() && q.numer().is_perfect_square() && q.denom().is_perfect_square())
        .then(|| Rational::from((q.numer().clone().sqrt(), q.denom().clone().sqrt())))
}

/// √c for c > 0 of its own field K, not a square there: the generator of K(√c), a
/// field of degree 2·[K : Q] if that is within [`max_degree`].
fn adjoin_root(c: &Algebraic) -> Result<Algebraic, ArithError> {
    let k = c.f.as_ref().expect("an irrational radicand");
    let degree = 2 * k.n;
    if degree > max_degree() {
        return Err(ArithError::NotRepresentable {
            what: format!("sqrt({c}), of degree {degree} over Q,"),
            backend: Algebraic::NAME,
            hint: format!(
                "the algebraic backend builds fields of degree at most {} (penny run: --max-degree up to {MAX_TOWER_DEGREE}); use an enclosure backend: --arith mpi:BITS",
                max_degree()
            ),
        });
    }
    let f = tower_field(k, c.c.clone());
    let mut root = vec![Rational::new(); f.n];
    root[k.n] = Rational::from(1);
    Ok(Algebraic {
        c: root,
        f: Some(f),
    })
}

fn mismatch(a: &Generator, b: &Generator) -> ArithError {
    ArithError::NotRepresentable {
        what: format!("a value needing both Q({a}) and Q({b})"),
        backend: Algebraic::NAME,
        hint: "use an enclosure backend: --arith interval or --arith mpi:BITS".into(),
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The coefficients of `x` in the field `f` (a field containing x's own).
fn embed(x: &Algebraic, f: &Arc<Field>) -> Vec<Rational> {
    let n = f.degree();
    match &x.f {
        None => {
            let mut c = vec![Rational::new(); n];
            c[0] = x.c[0].clone();
            c
        }
        Some(g) if g.id == f.id => x.c.clone(),
        Some(g) => {
            if let Some(t) = &f.tower {
                if contains(&t.parent, g) {
                    let mut c = embed(x, &t.parent);
                    c.resize(n, Rational::new());
                    return c;
                }
            }
            if let Some(t) = &g.tower {
                // x = u + v√c with √c's image in f
                let m = t.parent.n;
                let u = Algebraic::from_coefficients(&t.parent, x.c[..m].to_vec());
                let v = Algebraic::from_coefficients(&t.parent, x.c[m..].to_vec());
                let r = Algebraic::lift(&u, f) + &(Algebraic::lift(&v, f) * &root_image(g, f));
                return embed(&r, f);
            }
            let (Generator::CosPi(m), Generator::CosPi(l)) = (&g.gen, &f.gen) else {
                // g = Q(√d) met f elsewhere: x = u + v√d with √d's image in f
                let Some((u, v, _)) = x.degree_two_parts() else {
                    panic!("impactkit bug: embedding {} into {}", g.gen, f.gen);
                };
                let r = Algebraic::rational(u) + &(Algebraic::rational(v) * &root_image(g, f));
                return embed(&r, f);
            };
            let image = {
                let mut images = f.images.lock().unwrap_or_else(|e| e.into_inner());
                images
                    .entry(*m)
                    .or_insert_with(|| chebyshev(&Algebraic::generator(f), l / m))
                    .clone()
            };
            // Horner in the big field
            let mut acc = Algebraic::rational(x.c[x.c.len() - 1].clone());
            for c in x.c[..x.c.len() - 1].iter().rev() {
                acc = acc * &image + &Algebraic::rational(c.clone());
            }
            embed(&acc, f)
        }
    }
}

fn rat_sign(q: &Rational) -> Sign {
    match q.cmp0() {
        std::cmp::Ordering::Greater => Sign::Positive,
        std::cmp::Ordering::Less => Sign::Negative,
        std::cmp::Ordering::Equal => Sign::Zero,
    }
}

/// Square root of a non-negative rational: rational, or a multiple of √r, r square-free,
/// in a field: for r made of 2, 3, 5 the fields of cosines (√6 in Q(cos(π/12))),
/// otherwise Q(√r) (√14 too, which meets Q(cos(π/4)) in the tower Q(√2)(√14)).
fn sqrt_rational(q: &Rational) -> Result<Algebraic, ArithError> {
    let (s, r) = super::quadratic::squarefree_split(&Integer::from(q.numer() * q.denom()));
    let coef = Rational::from((s, q.denom().clone()));
    if r == 1 {
        return Ok(Algebraic::rational(coef));
    }
    let mut rest = r.clone();
    for p in [2u32, 3, 5] {
        if rest.is_divisible_u(p) {
            rest.div_exact_u_mut(p);
        }
    }
    if rest != 1 {
        // a prime other than 2, 3, 5: Q(√r) of degree 2 (it meets the fields of cosines
        // in towers)
        let f = sqrt_field(&r);
        return Ok(Algebraic::from_coefficients(
            &f,
            vec![Rational::new(), coef],
        ));
    }
    let mut root = Algebraic::rational(coef);
    for (p, n) in [(2u32, 4u32), (3, 6), (5, 5)] {
        if r.is_divisible_u(p) {
            let theta = Algebraic::cos_pi_over(n)?;
            // √2 = 2cos(π/4), √3 = 2cos(π/6), √5 = 4cos(π/5) − 1
            let v = match p {
                5 => {
                    theta.mul_r(&Algebraic::rational(Rational::from(4)))
                        - &Algebraic::rational(Rational::from(1))
                }
                _ => theta.mul_r(&Algebraic::rational(Rational::from(2))),
            };
            root = root * &v;
        }
    }
    Ok(root)
}

// Operators: owned left operands are updated in place.
impl<'a> Add<&'a Algebraic> for Algebraic {
    type Output = Algebraic;
    fn add(mut self, rhs: &'a Algebraic) -> Algebraic {
        self.add_assign_ref(rhs, 1);
        self
    }
}
impl Add for Algebraic {
    type Output = Algebraic;
    fn add(self, rhs: Algebraic) -> Algebraic {
        if self.f.is_none() && rhs.f.is_some() {
            rhs + &self
        } else {
            self + &rhs
        }
    }
}
impl<'a> Sub<&'a Algebraic> for Algebraic {
    type Output = Algebraic;
    fn sub(mut self, rhs: &'a Algebraic) -> Algebraic {
        self.add_assign_ref(rhs, -1);
        self
    }
}
impl Sub for Algebraic {
    type Output = Algebraic;
    fn sub(self, rhs: Algebraic) -> Algebraic {
        self - &rhs
    }
}
impl<'a> Mul<&'a Algebraic> for Algebraic {
    type Output = Algebraic;
    fn mul(mut self, rhs: &'a Algebraic) -> Algebraic {
        self.mul_assign_ref(rhs);
        self
    }
}
impl Mul for Algebraic {
    type Output = Algebraic;
    fn mul(self, rhs: Algebraic) -> Algebraic {
        if self.f.is_none() && rhs.f.is_some() {
            rhs * &self
        } else {
            self * &rhs
        }
    }
}
impl Neg for Algebraic {
    type Output = Algebraic;
    fn neg(mut self) -> Algebraic {
        self.neg_in_place();
        self
    }
}

impl PartialEq for Algebraic {
    fn eq(&self, other: &Self) -> bool {
        self.sub_r(other).sign() == Sign::Zero
    }
}

/// `c·t^i` terms joined into an input-language sum.
fn poly_string(c: &[Rational], t: &str) -> String {
    let mut out = String::new();
    for (i, x) in c.iter().enumerate() {
        if x.cmp0().is_eq() {
            continue;
        }
        let power = match i {
            0 => String::new(),
            1 => t.to_string(),
            _ => format!("{t}^{i}"),
        };
        let term = if i == 0 {
            x.to_string()
        } else if *x == 1 {
            power
        } else if *x == -1 {
            format!("-{power}")
        } else {
            format!("{x}*{power}")
        };
        if !out.is_empty() && !term.starts_with('-') {
            out.push('+');
        }
        out.push_str(&term);
    }
    if out.is_empty() {
        out.push('0');
    }
    out
}

/// u + v·root in the input language, u and v of the field below.
fn tower_string(u: &Algebraic, v: &Algebraic, root: &str) -> String {
    let vt = match v.as_rational() {
        Some(q) if *q == 1 => root.to_string(),
        Some(q) if *q == -1 => format!("-{root}"),
        Some(q) => format!("{q}*{root}"),
        None => format!("({v})*{root}"),
    };
    if u.sign() == Sign::Zero {
        vt
    } else if vt.starts_with('-') {
        format!("{u}{vt}")
    } else {
        format!("{u}+{vt}")
    }
}

impl fmt::Display for Algebraic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(t) = self
            .f
            .as_ref()
            .and_then(|g| g.tower.as_ref().map(|t| (g, t)))
        {
            let (g, t) = t;
            let n = t.parent.n;
            let u = Algebraic::from_coefficients(&t.parent, self.c[..n].to_vec());
            let v = Algebraic::from_coefficients(&t.parent, self.c[n..].to_vec());
            return write!(f, "{}", tower_string(&u, &v, &g.gen.to_string()));
        }
        match (&self.f, self.to_quadratic()) {
            (None, _) => write!(f, "{}", self.c[0]),
            (Some(_), Some(q)) => write!(f, "{q}"),
            (Some(_), None) => {
                let s = self.simplest();
                let field = s.f.as_ref().expect("not rational");
                write!(f, "{}", poly_string(&s.c, &field.gen.to_string()))
            }
        }
    }
}

/// Precision of the enclosure behind reports' decimals (154 digits).
const REPORT_PREC: u32 = 512;

impl Scalar for Algebraic {
    type Ctx = ();
    const NAME: &'static str = "algebraic";

    fn kind() -> Kind {
        Kind::Exact
    }
    fn from_rational(q: &BigRational, _ctx: &()) -> Self {
        Algebraic::rational(super::rat_to_rug(q))
    }
    fn from_f64_exact(x: f64, _ctx: &()) -> Option<Self> {
        Some(Algebraic::rational(rug::Rational::from_f64(x)?))
    }
    fn from_i64(n: i64, _ctx: &()) -> Self {
        Algebraic::rational(Rational::from(n))
    }
    fn ctx(&self) {}
    fn compatible(&self, other: &Self) -> Result<(), ArithError> {
        match (&self.f, &other.f) {
            (Some(_), Some(_)) => common_field(self, other).map(|_| ()),
            _ => Ok(()),
        }
    }
    fn checked_div(&self, rhs: &Self) -> Result<Self, ArithError> {
        Ok(self.mul_r(&rhs.inverse()?))
    }
    fn sign(&self) -> Sign {
        let Some(f) = &self.f else {
            return rat_sign(&self.c[0]);
        };
        let mut prec = FIRST_PREC;
        loop {
            let s = eval_in(&self.c, f, prec).sign();
            if s != Sign::Unknown || prec >= LAST_PREC {
                return s;
            }
            prec *= 2;
        }
    }
    /// Exact square root: of a rational (√r for r made of 2, 3, 5 in the fields of
    /// cosines, other r in Q(√r)); of an element of a field that is a square there (found
    /// by descent); else the generator of a tower K(√x) built for it, where the descent
    /// proves x is not a square in its field K (see the module comment).
    fn sqrt(&self) -> Result<Self, ArithError> {
        match self.sign() {
            Sign::Negative => {
                return Err(ArithError::Domain(format!(
                    "square root of a negative number: {self}"
                )))
            }
            Sign::Zero => return Ok(self.clone()),
            _ => {}
        }
        if let Some(q) = self.as_rational() {
            return sqrt_rational(q);
        }
        let x = self.simplest();
        match sqrt_in(&x, x.f.as_ref()) {
            Ok(Some(r)) => return Ok(r),
            Ok(None) => return adjoin_root(&x),
            Err(()) => {}
        }
        let not_here = || {
            ArithError::NotRepresentable {
            what: format!("sqrt({self})"),
            backend: Self::NAME,
            hint: "whether it lies in this number field is not decided by this backend; use an enclosure backend: --arith interval or --arith mpi:BITS".into(),
        }
        };
        let q = self.to_quadratic().ok_or_else(not_here)?;
        let root = q.sqrt().map_err(|_| not_here())?;
        // back into this field: a + b√d with √d from the same field
        let d = root.d().cloned().unwrap_or_else(|| Integer::from(1));
        let sd = sqrt_rational(&Rational::from(d))?;
        let a = Algebraic::rational(root.a().clone());
        let b = Algebraic::rational(root.b().clone());
        Ok(a + &(b * &sd))
    }
    /// Exact real k-th root: of a rational in Q(s^(1/m)) and the towers of square roots
    /// over it (`rational_kth_root`); of an irrational element only through square
    /// roots (k a power of two).
    fn root(&self, k: u32) -> Result<Self, ArithError> {
        match self.as_rational() {
            Some(q) if k > 0 && (k % 2 == 1 || q.cmp0().is_ge()) => rational_kth_root(q, k),
            _ => super::root_by_square_roots(self, k),
        }
    }
    fn to_f64(&self) -> f64 {
        match &self.f {
            None => Float::with_val(53, &self.c[0]).to_f64(),
            Some(_) => self.to_mp_interval(FIRST_PREC).to_f64(),
        }
    }
    fn enclosure(&self) -> Option<(f64, f64)> {
        self.to_mp_interval(FIRST_PREC).enclosure()
    }
    fn rational_bounds(&self) -> Option<(BigRational, BigRational)> {
        self.to_mp_interval(FIRST_PREC).rational_bounds()
    }
    fn render(&self) -> Rendered {
        let v = self.to_string();
        Rendered {
            value: v.clone(),
            bounds: Some((v.clone(), v)),
        }
    }
    fn size_digits(&self) -> u64 {
        let degree = self.f.as_ref().map_or(1, |f| f.degree() as u64);
        self.exact_digits() / degree
    }
    /// The extended Euclidean algorithm of [`Scalar::recip`] runs about n steps on
    /// polynomials of degree n whose coefficients swell to about n times the element's
    /// bits: charged n³ times the coefficients' bits (`1/(cos(π/64) − 2^10000)`, 4 s of
    /// GMP, is 3.3·10⁸ bits, over the language's work limit; with 2^1000, 0.1 s, within).
    fn inverse_work_bits(&self) -> u64 {
        let Some(f) = &self.f else {
            return 0;
        };
        let n = f.degree() as u64;
        let bits: u64 = self
            .c
            .iter()
            .map(|q| {
                u64::from(q.numer().significant_bits()) + u64::from(q.denom().significant_bits())
            })
            .sum();
        n.saturating_mul(n).saturating_mul(n).saturating_mul(bits)
    }
    /// The coefficients' digits times the field's degree: one product of two elements
    /// costs about degree² coefficient products (and a division a Euclidean algorithm
    /// on polynomials of that degree), so the work limits of exact runs, which read
    /// this measure, stop a run in Q(cos(π/16)) about as soon, in time, as one in Q.
    fn exact_digits(&self) -> u64 {
        let degree = self.f.as_ref().map_or(1, |f| f.degree() as u64);
        let bits: u64 = self
            .c
            .iter()
            .map(|q| {
                u64::from(q.numer().significant_bits()) + u64::from(q.denom().significant_bits())
            })
            .sum();
        (bits as f64 * std::f64::consts::LOG10_2).ceil() as u64 * degree
    }
    fn num(&self) -> Num {
        let expr = self.to_string();
        if self.f.is_none() {
            return Num::Exact {
                expr,
                value: ExactValue::Rational(self.c[0].clone()),
            };
        }
        if let Some(q) = self.to_quadratic() {
            return q.num();
        }
        let e = self.to_mp_interval(REPORT_PREC);
        Num::Exact {
            expr,
            value: ExactValue::Enclosed {
                lo: e.lo().clone(),
                hi: e.hi().clone(),
            },
        }
    }
    fn trig_pi(trig: super::Trig, q: &BigRational, _ctx: &()) -> Option<Result<Self, ArithError>> {
        let q = super::rat_to_rug(q);
        Some(match trig {
            super::Trig::Cos => Self::cos_pi(&q),
            super::Trig::Sin => Self::sin_pi(&q),
            super::Trig::Tan => Self::sin_pi(&q).and_then(|s| {
                let c = Self::cos_pi(&q)?;
                if c.sign() == Sign::Zero {
                    return Err(ArithError::Domain(format!(
                        "tan(({q})*pi) is undefined (a pole of tan)"
                    )));
                }
                s.checked_div(&c)
            }),
        })
    }
    fn pi(_ctx: &()) -> Result<Self, ArithError> {
        Err(not_representable("pi", Self::NAME))
    }
    fn sin(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("sin({self})"), Self::NAME))
    }
    fn cos(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("cos({self})"), Self::NAME))
    }
    fn tan(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("tan({self})"), Self::NAME))
    }
    fn atan(&self) -> Result<Self, ArithError> {
        Err(not_representable(&format!("atan({self})"), Self::NAME))
    }
    fn mul_r(&self, rhs: &Self) -> Self {
        self.clone() * rhs
    }
}

/// Decimal text of an enclosed exact value: `digits` correctly rounded digits when both
/// bounds round alike, the enclosure otherwise.
pub(crate) fn enclosed_text(lo: &Float, hi: &Float, digits: usize) -> String {
    let l = float_to_decimal(lo, digits, Round::Nearest);
    let h = float_to_decimal(hi, digits, Round::Nearest);
    if l == h {
        l
    } else {
        format!(
            "[{}, {}]",
            float_to_decimal(lo, digits, Round::Down),
            float_to_decimal(hi, digits, Round::Up)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Algebraic {
        Algebraic::rational(Rational::from((n, d)))
    }
    fn pi_mult(n: i64, d: i64) -> Rational {
        Rational::from((n, d))
    }

    #[test]
    fn minimal_polynomials() {
        // cos(π/4)² = 1/2; cos(π/16): 2T_8(x) = 256x⁸ − 512x⁶ + 320x⁴ − 64x² + 2
        assert_eq!(
            cos_field(4).unwrap().min_poly().unwrap(),
            [q(-1, 2), q(0, 1), q(1, 1)].map(|x| x.c[0].clone())
        );
        let p16: Vec<String> = cos_field(16)
            .unwrap()
            .min_poly()
            .unwrap()
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(p16, ["1/128", "0", "-1/4", "0", "5/4", "0", "-2", "0", "1"]);
        // cos(π/5) = (1 + √5)/4: 4x² − 2x − 1
        let p5: Vec<String> = cos_field(5)
            .unwrap()
            .min_poly()
            .unwrap()
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(p5, ["-1/4", "-1/2", "1"]);
        // cos(π/7): 8x³ − 4x² − 4x + 1
        let p7: Vec<String> = cos_field(7)
            .unwrap()
            .min_poly()
            .unwrap()
            .iter()
            .map(|x| x.to_string())
            .collect();
        assert_eq!(p7, ["1/8", "-1/2", "-1/2", "1"]);
        assert_eq!(cos_degree(16), 8);
        assert_eq!(cos_degree(9), 3);
    }

    #[test]
    fn tan_pi_over_16() {
        // tan(π/16) = √(4 + 2√2) − √2 − 1: (t + √2 + 1)² = 4 + 2√2
        let t = Algebraic::sin_pi(&pi_mult(1, 16))
            .unwrap()
            .checked_div(&Algebraic::cos_pi(&pi_mult(1, 16)).unwrap())
            .unwrap();
        let s2 = q(2, 1).sqrt().unwrap();
        let lhs = (t.clone() + &s2 + &q(1, 1)).square();
        let rhs = q(4, 1) + &(q(2, 1) * &s2);
        assert_eq!(lhs.sign(), rhs.sign());
        assert_eq!((lhs - &rhs).sign(), Sign::Zero);
        let (lo, hi) = t.enclosure().unwrap();
        let v = (std::f64::consts::PI / 16.0).tan();
        assert!(lo <= v + 1e-15 && v - 1e-15 <= hi);
        // sin² + cos² = 1 at 3π/32
        let s = Algebraic::sin_pi(&pi_mult(3, 32)).unwrap();
        let c = Algebraic::cos_pi(&pi_mult(3, 32)).unwrap();
        assert_eq!(
            (s.square() + &c.square()).as_rational(),
            Some(&Rational::from(1))
        );
    }

    #[test]
    fn fields_join_and_degree_two_agrees_with_quadratic() {
        // √3 (in Q(cos(π/6))) times cos(π/16) lives in Q(cos(π/48))
        let s3 = q(3, 1).sqrt().unwrap();
        assert_eq!(s3.to_string(), "sqrt(3)");
        let c16 = Algebraic::cos_pi_over(16).unwrap();
        let x = s3.mul_r(&c16);
        assert_eq!(x.parts().1.unwrap().generator(), &Generator::CosPi(48));
        assert_eq!((x.square() - &(q(3, 1) * &c16.square())).sign(), Sign::Zero);
        // √6 = √2·√3 and 1/(1 + √2) = √2 − 1
        assert_eq!(
            q(6, 1).sqrt().unwrap().square().as_rational(),
            Some(&Rational::from(6))
        );
        let s2 = q(2, 1).sqrt().unwrap();
        let inv = q(1, 1).checked_div(&(q(1, 1) + &s2)).unwrap();
        assert_eq!(inv.to_string(), "-1+sqrt(2)");
        // √7 is its own field; it meets cos(π/16) in the tower Q(cos(π/16))(√7), and
        // cos(π/7) in Q(cos(π/7))(√7) (odd degree 3: no quadratic subfield), but not
        // cos(π/15), of degree 4, where whether √7 lies in it is not decided
        let s7 = q(7, 1).sqrt().unwrap();
        assert_eq!(s7.to_string(), "sqrt(7)");
        let y = s7.mul_r(&c16);
        assert_eq!(y.parts().1.unwrap().degree(), 16);
        assert_eq!((y.square() - &(q(7, 1) * &c16.square())).sign(), Sign::Zero);
        assert!(s7.compatible(&Algebraic::cos_pi_over(7).unwrap()).is_ok());
        assert_eq!(
            s7.mul_r(&Algebraic::cos_pi_over(7).unwrap())
                .parts()
                .1
                .unwrap()
                .degree(),
            6
        );
        assert!(s7.compatible(&Algebraic::cos_pi_over(15).unwrap()).is_err());
        // (7 − 4√3) = (2 − √3)²
        let y = q(7, 1) - &(q(4, 1) * &s3);
        assert_eq!(y.sqrt().unwrap().to_string(), "2-sqrt(3)");
        // sqrt(cos(π/7)): whether Q(cos(π/7)) holds it is not decided here
        assert!(matches!(
            Algebraic::cos_pi_over(7).unwrap().sqrt(),
            Err(ArithError::NotRepresentable { .. })
        ));
        assert!(matches!(
            q(0, 1).checked_div(&q(0, 1)),
            Err(ArithError::DivisionByZero)
        ));
    }

    #[test]
    fn inverse_and_signs() {
        let c = Algebraic::cos_pi_over(16).unwrap();
        let x = c.square() - &q(1, 2) + &c; // nonzero
        let y = q(1, 1).checked_div(&x).unwrap();
        assert_eq!(y.mul_r(&x).as_rational(), Some(&Rational::from(1)));
        // cos(π/16) > cos(π/8) > cos(3π/16)
        let c8 = Algebraic::cos_pi(&pi_mult(1, 8)).unwrap();
        let c316 = Algebraic::cos_pi(&pi_mult(3, 16)).unwrap();
        assert_eq!((c.clone() - &c8).sign(), Sign::Positive);
        assert_eq!((c316 - &c8).sign(), Sign::Negative);
        // cos(π/8) = 2cos²(π/16) − 1 exactly, across fields Q(cos(π/8)) ⊂ Q(cos(π/16))
        assert_eq!((c.square() * &q(2, 1) - &q(1, 1) - &c8).sign(), Sign::Zero);
        assert!(Algebraic::cos_pi(&pi_mult(1, 1000)).is_err());
    }

    #[test]
    fn values_print_in_their_smallest_field() {
        let c = Algebraic::cos_pi_over(16).unwrap();
        // 2cos²(π/16) − 1 = cos(π/8); (tan(π/16) + √2 + 1)² = 4 + 2√2
        let x = c.square() * &q(2, 1) - &q(1, 1);
        assert_eq!(x.to_string(), "cos(pi/8)");
        assert_eq!(
            x.simplest().parts().1.unwrap().generator(),
            &Generator::CosPi(8)
        );
        let t = Algebraic::sin_pi(&pi_mult(1, 16))
            .unwrap()
            .checked_div(&c)
            .unwrap();
        let y = (t.clone() + &q(2, 1).sqrt().unwrap() + &q(1, 1)).square();
        assert_eq!(y.to_string(), "4+2*sqrt(2)");
        assert_eq!(t.to_string(), "1-4*cos(pi/8)-4*cos(pi/8)^2+8*cos(pi/8)^3");
        // cos(π/16) itself stays
        assert_eq!(c.to_string(), "cos(pi/16)");
    }

    fn eval(text: &str) -> Algebraic {
        crate::lang::eval_str::<Algebraic>(text, &()).unwrap()
    }

    #[test]
    fn square_roots_build_towers_of_quadratic_fields() {
        // √(2 + √3) is not in Q(√3): the tower Q(√3)(√(2 + √3)) of degree 4, where it
        // equals (√6 + √2)/2, its square is 2 + √3 and its inverse (2 − √3)√(2 + √3)
        let r = eval("sqrt(2+sqrt(3))");
        assert_eq!(r.to_string(), "sqrt(2+sqrt(3))");
        assert_eq!(r.parts().1.unwrap().degree(), 4);
        assert_eq!(r.square().to_string(), "2+sqrt(3)");
        assert_eq!(
            eval("sqrt(2+sqrt(3)) - (sqrt(6)+sqrt(2))/2").sign(),
            Sign::Zero
        );
        assert_eq!(
            eval("1/sqrt(2+sqrt(3))").to_string(),
            "(2-sqrt(3))*sqrt(2+sqrt(3))"
        );
        let (lo, hi) = r.enclosure().unwrap();
        assert!(lo <= 1.9318516525781366 && 1.9318516525781366 <= hi && hi - lo < 1e-15);
        // a square in the tower is found there: (1 + r)² = 3 + √3 + 2r
        let s = eval("sqrt(3+sqrt(3)+2*sqrt(2+sqrt(3)))");
        assert_eq!(s.to_string(), "1+sqrt(2+sqrt(3))");
        assert_eq!(s.parts().1.unwrap().degree(), 4);
        // the descent through the fields of cosines: √(4 + 2√2) = 2√2·cos(π/8), so
        // tan(π/16) = √(4 + 2√2) − √2 − 1 exactly
        assert_eq!(
            eval("sqrt(4+2*sqrt(2)) - sqrt(2) - 1 - tan(pi/16)").sign(),
            Sign::Zero
        );
        // two towers meet in one of degree 8
        let u = eval("(sqrt(2+sqrt(3)) + sqrt(5+sqrt(3)))^2 - 7 - 2*sqrt(3)");
        assert_eq!(u.parts().1.unwrap().degree(), 8);
        assert_eq!(
            (u.square() - &eval("4*(2+sqrt(3))*(5+sqrt(3))")).sign(),
            Sign::Zero
        );
        // √14 is Q(√14); with √2 in Q(√14)(√2)
        assert_eq!(eval("sqrt(14)*sqrt(2) - 2*sqrt(7)").sign(), Sign::Zero);
    }

    #[test]
    fn towers_stop_at_the_degree_limit() {
        // six nested roots: degree 64, the default limit; a seventh would be 128
        let six = "sqrt(1+sqrt(1+sqrt(1+sqrt(1+sqrt(1+sqrt(7))))))";
        let x = eval(six);
        assert_eq!(x.parts().1.unwrap().degree(), 64);
        let e = crate::lang::eval_str::<Algebraic>(&format!("sqrt(1+{six})"), &()).unwrap_err();
        assert!(e.to_string().contains("of degree 128 over Q"), "{e}");
        // squares of the tower are still found
        assert_eq!(x.square().sqrt().unwrap().sub_r(&x).sign(), Sign::Zero);
    }

    #[test]
    fn real_roots_of_rationals() {
        // 2^(1/3) is a root of the irreducible x³ − 2: 1.2599… < 63/50 = 1.26
        let r = eval("root(2,3)");
        assert_eq!(r.parts().1.unwrap().degree(), 3);
        assert_eq!(
            r.parts().1.unwrap().min_poly().unwrap(),
            [-2, 0, 0, 1].map(Rational::from)
        );
        assert_eq!(eval("root(2,3)^3 - 2").sign(), Sign::Zero);
        assert_eq!(eval("root(2,3) - 63/50").sign(), Sign::Negative);
        assert_eq!(eval("root(2,3) - 5/4").sign(), Sign::Positive);
        // perfect powers are rational: (−27/8)^(1/3) = −3/2, 16^(1/4) = 2
        assert_eq!(eval("root(-27/8,3)").to_string(), "-3/2");
        assert_eq!(eval("root(16,4)").to_string(), "2");
        // one generator per field: 16^(1/3) = 2·2^(1/3), 4^(1/3) = 2^(2/3),
        // 12^(1/3)·18^(1/3) = 216^(1/3) = 6, (1/4)^(1/6) = 2^(−1/3) = 2^(2/3)/2
        assert_eq!(eval("root(16,3)").to_string(), "2*root(2,3)");
        assert_eq!(eval("root(4,3)").to_string(), "root(2,3)^2");
        assert_eq!(eval("root(12,3)*root(18,3)").to_string(), "6");
        assert_eq!(eval("root(1/4,6)").to_string(), "1/2*root(2,3)^2");
        // 1/(1 + θ) = (1 − θ + θ²)/3, since (1 + θ)(1 − θ + θ²) = 1 + θ³ = 3
        assert_eq!(
            eval("1/(1+root(2,3))").to_string(),
            "1/3-1/3*root(2,3)+1/3*root(2,3)^2"
        );
        // even indices: square roots over Q(s^(1/m)); 72^(1/6) has degree 6, and
        // 4^(1/6) = 2^(1/3) (4 is a square, so x⁶ − 4 is reducible)
        let r6 = eval("root(72,6)");
        assert_eq!(r6.parts().1.unwrap().degree(), 6);
        assert_eq!(r6.powi(6).unwrap().to_string(), "72");
        assert_eq!(eval("root(4,6) - root(2,3)").sign(), Sign::Zero);
        // Q(2^(1/3)) has odd degree, so √2 ∉ it: 2^(1/3)·√2 = 2^(5/6) in the tower
        let x = eval("root(2,3)*sqrt(2)");
        assert_eq!(x.parts().1.unwrap().degree(), 6);
        assert_eq!(x.powi(6).unwrap().to_string(), "32");
        // the same rule for Q(cos(π/7)), of degree 3: √7·cos(π/7) in Q(cos(π/7))(√7)
        assert_eq!(
            eval("(sqrt(7)*cos(pi/7))^2 - 7*cos(pi/7)^2").sign(),
            Sign::Zero
        );
        // enclosures agree: 3^(1/5) = 1.2457309396155173…
        let (lo, hi) = eval("root(3,5)").enclosure().unwrap();
        assert!(lo <= 1.2457309396155174 && 1.2457309396155172 <= hi);
        // a degree above the limit is refused with its degree
        let e = crate::lang::eval_str::<Algebraic>("root(2,67)", &()).unwrap_err();
        assert!(e.to_string().contains("of degree 67 over Q"), "{e}");
    }
}
