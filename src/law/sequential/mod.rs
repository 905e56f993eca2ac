//! Winandy–Leine (2017), the Sequential Impact Law of the 3-ball Newton's cradle: a
//! continuous cone-wise linear map γ⁻ ↦ γ⁺ = Qᵢ γ⁻ on R² (eq. (19)).
//!
//! The law is not typed in: [`construct`] derives the cones and matrices from the
//! requirements P1 (continuity), P2 (energy conservation in the metric G⁻¹) and P3 (each
//! cone is mapped onto the first quadrant) of Sect. 3, for any masses m1, m2, m3. Each new
//! matrix is the previous one composed with the G⁻¹-reflection across the shared boundary
//! ray (the only G⁻¹-isometry other than Qᵢ itself that agrees with Qᵢ on that ray), so the
//! construction is rational: no square root is ever needed. Whether it closes up into a map
//! of the whole plane depends on the G⁻¹-angle θ of the first quadrant (it does iff θ = π/n).

pub mod checks;
pub mod classic;
pub mod cycles;

use crate::arith::{Scalar, Sign};
use crate::law::{decide, LawError};

/// A vector of R².
pub type Vec2<S> = [S; 2];
/// A 2×2 matrix, row major.
pub type Mat2<S> = [[S; 2]; 2];

/// `A x`.
pub fn mat_vec<S: Scalar>(a: &Mat2<S>, x: &Vec2<S>) -> Vec2<S> {
    [
        a[0][0].mul_r(&x[0]) + &a[0][1].mul_r(&x[1]),
        a[1][0].mul_r(&x[0]) + &a[1][1].mul_r(&x[1]),
    ]
}

/// `A B`.
pub fn mat_mul<S: Scalar>(a: &Mat2<S>, b: &Mat2<S>) -> Mat2<S> {
    let e = |i: usize, j: usize| a[i][0].mul_r(&b[0][j]) + &a[i][1].mul_r(&b[1][j]);
    [[e(0, 0), e(0, 1)], [e(1, 0), e(1, 1)]]
}

/// `Aᵀ`.
pub fn transpose<S: Scalar>(a: &Mat2<S>) -> Mat2<S> {
    [
        [a[0][0].clone(), a[1][0].clone()],
        [a[0][1].clone(), a[1][1].clone()],
    ]
}

/// `det(a, b)` = a₁b₂ − a₂b₁ (positive when b lies counter-clockwise of a).
pub fn det<S: Scalar>(a: &Vec2<S>, b: &Vec2<S>) -> S {
    a[0].mul_r(&b[1]) - &a[1].mul_r(&b[0])
}

/// `A⁻¹`; an error if A is singular.
pub fn inverse<S: Scalar>(a: &Mat2<S>) -> Result<Mat2<S>, LawError> {
    let d = a[0][0].mul_r(&a[1][1]) - &a[0][1].mul_r(&a[1][0]);
    if decide(&d, "det Q")? == Sign::Zero {
        return Err(LawError::Domain("singular matrix".into()));
    }
    let f = |x: &S| x.checked_div(&d);
    Ok([
        [f(&a[1][1])?, f(&-a[0][1].clone())?],
        [f(&-a[1][0].clone())?, f(&a[0][0])?],
    ])
}

/// `a − b`.
pub fn sub2<S: Scalar>(a: &Vec2<S>, b: &Vec2<S>) -> Vec2<S> {
    [a[0].sub_r(&b[0]), a[1].sub_r(&b[1])]
}

/// `a + b`.
pub fn add2<S: Scalar>(a: &Vec2<S>, b: &Vec2<S>) -> Vec2<S> {
    [a[0].add_r(&b[0]), a[1].add_r(&b[1])]
}

/// `c a`.
pub fn scale2<S: Scalar>(c: &S, a: &Vec2<S>) -> Vec2<S> {
    [c.mul_r(&a[0]), c.mul_r(&a[1])]
}

/// `aᵀb`.
pub fn dot2<S: Scalar>(a: &Vec2<S>, b: &Vec2<S>) -> S {
    a[0].mul_r(&b[0]) + &a[1].mul_r(&b[1])
}

/// `x == 0`, decided.
pub fn is_zero<S: Scalar>(x: &S, quantity: &str) -> Result<bool, LawError> {
    Ok(decide(x, quantity)? == Sign::Zero)
}

/// `a == b` entrywise, decided.
pub fn vec_eq<S: Scalar>(a: &Vec2<S>, b: &Vec2<S>, what: &str) -> Result<bool, LawError> {
    Ok(is_zero(&a[0].sub_r(&b[0]), what)? && is_zero(&a[1].sub_r(&b[1]), what)?)
}

/// `A == B` entrywise, decided.
pub fn mat_eq<S: Scalar>(a: &Mat2<S>, b: &Mat2<S>, what: &str) -> Result<bool, LawError> {
    Ok(vec_eq(&a[0], &b[0], what)? && vec_eq(&a[1], &b[1], what)?)
}

/// The 3-ball cradle of Sect. 2: masses m1, m2, m3, gap functions g = (q2 − q1, q3 − q2),
/// W of eq. (3), the Delassus operator G = Wᵀ M⁻¹ W of eq. (6) and its inverse, the
/// metric of P2.
#[derive(Clone, Debug, PartialEq)]
pub struct Cradle<S> {
    pub masses: [S; 3],
    /// G = Wᵀ M⁻¹ W = [[1/m1 + 1/m2, −1/m2], [−1/m2, 1/m2 + 1/m3]], eq. (6).
    pub g: Mat2<S>,
    /// G⁻¹.
    pub g_inv: Mat2<S>,
}

impl<S: Scalar> Cradle<S> {
    /// The cradle with masses m1, m2, m3 (each must be positive).
    pub fn new(masses: &[S; 3]) -> Result<Self, LawError> {
        for (i, m) in masses.iter().enumerate() {
            if decide(m, &format!("m{}", i + 1))? != Sign::Positive {
                return Err(LawError::Domain(format!(
                    "mass m{} must be positive",
                    i + 1
                )));
            }
        }
        let inv: Vec<S> = masses.iter().map(|m| m.recip()).collect::<Result<_, _>>()?;
        let g = [
            [inv[0].add_r(&inv[1]), -inv[1].clone()],
            [-inv[1].clone(), inv[1].add_r(&inv[2])],
        ];
        let g_inv = inverse(&g)?;
        Ok(Cradle {
            masses: masses.clone(),
            g,
            g_inv,
        })
    }
    /// ⟨a, b⟩ = aᵀ G⁻¹ b.
    pub fn inner(&self, a: &Vec2<S>, b: &Vec2<S>) -> S {
        dot2(a, &mat_vec(&self.g_inv, b))
    }
    /// ‖a‖²_{G⁻¹}, eq. (14).
    pub fn norm2(&self, a: &Vec2<S>) -> S {
        self.inner(a, a)
    }
    /// The impulse Λ = G⁻¹(γ⁺ − γ⁻), eq. (6).
    pub fn impulse(&self, gamma_minus: &Vec2<S>, gamma_plus: &Vec2<S>) -> Vec2<S> {
        mat_vec(&self.g_inv, &sub2(gamma_plus, gamma_minus))
    }
    /// The G⁻¹-reflection across the line spanned by `v`:
    /// R x = 2 ⟨v, x⟩ / ⟨v, v⟩ v − x.
    pub fn reflection(&self, v: &Vec2<S>) -> Result<Mat2<S>, LawError> {
        let w = mat_vec(&self.g_inv, v); // G⁻¹ v
        let n = dot2(v, &w);
        let two = n.lift_i64(2);
        let c = |i: usize, j: usize| -> Result<S, LawError> {
            let mut x = two.mul_r(&v[i]).mul_r(&w[j]).checked_div(&n)?;
            if i == j {
                x = x - &n.one_like();
            }
            Ok(x)
        };
        Ok([[c(0, 0)?, c(0, 1)?], [c(1, 0)?, c(1, 1)?]])
    }
    /// cos²θ = (G⁻¹₁₂)² / (G⁻¹₁₁ G⁻¹₂₂), θ the G⁻¹-angle between e1 and e2 (the angle of
    /// every cone of the law, since each is an isometric image of the first quadrant).
    pub fn cos2_theta(&self) -> Result<S, LawError> {
        Ok(self.g_inv[0][1]
            .square()
            .checked_div(&self.g_inv[0][0].mul_r(&self.g_inv[1][1]))?)
    }
}

/// One cone Cᵢ: the rays `from`, `to` (counter-clockwise, angle < π) and its matrix Qᵢ.
#[derive(Clone, Debug, PartialEq)]
pub struct Cone<S> {
    pub name: String,
    pub from: Vec2<S>,
    pub to: Vec2<S>,
    pub q: Mat2<S>,
}

impl<S: Scalar> Cone<S> {
    /// Whether `x` lies in the closed cone (decided through `sign()`).
    pub fn contains(&self, x: &Vec2<S>) -> Result<bool, LawError> {
        let a = decide(&det(&self.from, x), "det(from, γ⁻)");
        let b = decide(&det(x, &self.to), "det(γ⁻, to)");
        // one decided negative sign excludes the point, even if the other is undecided
        if matches!(a, Ok(Sign::Negative)) || matches!(b, Ok(Sign::Negative)) {
            return Ok(false);
        }
        a?;
        b?;
        Ok(true)
    }
}

/// A cone-wise linear map of R² (eq. (19)): cones in counter-clockwise order, each sharing
/// its `to` ray with the next one's `from` ray, covering the plane without overlap.
#[derive(Clone, Debug, PartialEq)]
pub struct ConeMap<S> {
    pub cones: Vec<Cone<S>>,
}

/// The value of a cone-wise map at one point.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation<S> {
    /// Index into [`ConeMap::cones`].
    pub cone: usize,
    pub name: String,
    pub gamma_plus: Vec2<S>,
}

impl<S: Scalar> ConeMap<S> {
    /// The index of a cone that contains `x` (a point on a shared ray may get either
    /// neighbour: continuity makes them agree). In enclosure arithmetic, a point no cone
    /// can be decided to contain is `Undecided`, never guessed.
    pub fn locate(&self, x: &Vec2<S>) -> Result<usize, LawError> {
        let mut undecided = None;
        for (i, c) in self.cones.iter().enumerate() {
            match c.contains(x) {
                Ok(true) => return Ok(i),
                Ok(false) => {}
                Err(e) => undecided = undecided.or(Some(e)),
            }
        }
        Err(undecided
            .unwrap_or_else(|| LawError::Domain("the cones do not cover this point".into())))
    }
    /// The cones that cannot be excluded for `x` (in exact arithmetic: the one or two
    /// cones that contain it; with enclosures, also those whose membership is undecided).
    pub fn candidates(&self, x: &Vec2<S>) -> Vec<usize> {
        (0..self.cones.len())
            .filter(|&i| !matches!(self.cones[i].contains(x), Ok(false)))
            .collect()
    }
    /// γ⁺ = S(γ⁻) = Qᵢ γ⁻, eq. (19).
    pub fn apply(&self, x: &Vec2<S>) -> Result<Evaluation<S>, LawError> {
        let i = self.locate(x)?;
        Ok(Evaluation {
            cone: i,
            name: self.cones[i].name.clone(),
            gamma_plus: mat_vec(&self.cones[i].q, x),
        })
    }
    /// The cone named `name`.
    pub fn cone(&self, name: &str) -> Option<&Cone<S>> {
        self.cones.iter().find(|c| c.name == name)
    }
}

/// What the construction of Sect. 3 gives for one set of masses.
#[derive(Clone, Debug, PartialEq)]
pub struct Construction<S> {
    pub cradle: Cradle<S>,
    /// The cones C_I, then counter-clockwise from the positive γ₂ axis. When the
    /// construction does not close, the last one overlaps C_I.
    pub cones: Vec<Cone<S>>,
    /// The last cone ends exactly on the positive γ₁ axis.
    pub closes: bool,
    /// `closes` and the last matrix maps that ray to itself, as Q_I does (P1 at e1).
    pub continuous_at_closure: bool,
    /// Q_last e1: where the last cone sends e1 (= e1 iff continuous at closure). When the
    /// construction overshoots, e1 is inside the last cone and gets two values, e1 and this.
    pub last_image_of_e1: Vec2<S>,
}

/// Winandy–Leine (2017), Sect. 3, P1–P3 and eqs. (20)–(22): the cones and matrices of the
/// Sequential Impact Law for masses m1, m2, m3, built counter-clockwise from Q_I = I
/// (eq. (20)). At the boundary ray v between Cᵢ and Cᵢ₊₁, P1 and P2 leave exactly two
/// G⁻¹-isometries that agree with Qᵢ on v: Qᵢ itself (excluded: its cone is Cᵢ, P3) and
/// Qᵢ₊₁ = Qᵢ R_v, R_v the G⁻¹-reflection across v. P3 then reads Cᵢ₊₁ from the columns of
/// Qᵢ₊₁⁻¹ (one of them is v, the other the next boundary, eq. (22)). Stops when a cone
/// reaches the positive γ₁ axis, or after `max_cones` cones.
pub fn construct<S: Scalar>(
    masses: &[S; 3],
    max_cones: usize,
) -> Result<Construction<S>, LawError> {
    let cradle = Cradle::new(masses)?;
    let one = masses[0].one_like();
    let zero = masses[0].zero_like();
    let e1 = [one.clone(), zero.clone()];
    let e2 = [zero.clone(), one.clone()];
    let identity = [[one.clone(), zero.clone()], [zero.clone(), one.clone()]];
    let mut cones = vec![Cone {
        name: String::new(),
        from: e1.clone(),
        to: e2.clone(),
        q: identity,
    }];
    let mut closes = false;
    loop {
        if cones.len() >= max_cones.max(2) {
            return Err(LawError::Domain(format!(
                "the construction did not reach the positive γ₁ axis within {max_cones} cones"
            )));
        }
        let last = cones.last().expect("at least C_I");
        let v = last.to.clone();
        let q = mat_mul(&last.q, &cradle.reflection(&v)?);
        // the deterministic work limit of `laws` and `regress` (`--max-digits`): the
        // matrices' exact numbers grow with every cone
        if let Some(cap) = crate::budget::digit_cap() {
            let digits: u64 = q.iter().flatten().map(Scalar::exact_digits).sum();
            if digits > cap {
                return Err(LawError::Domain(format!(
                    "work limit: the matrix of cone {} has {digits} digits (--max-digits {cap})",
                    cones.len() + 1
                )));
            }
        }
        let qi = inverse(&q)?;
        let cols = [
            [qi[0][0].clone(), qi[1][0].clone()],
            [qi[0][1].clone(), qi[1][1].clone()],
        ];
        // one column is parallel to v (P1), the other is the next boundary (P3)
        let par0 = is_zero(&det(&cols[0], &v), "det(column, v)")?;
        let par1 = is_zero(&det(&cols[1], &v), "det(column, v)")?;
        let next = match (par0, par1) {
            (true, false) => cols[1].clone(),
            (false, true) => cols[0].clone(),
            _ => {
                return Err(LawError::Domain(
                    "P3 fails: no column of Q⁻¹ (or both) lies on the boundary ray".into(),
                ))
            }
        };
        if decide(&det(&v, &next), "det(v, next boundary)")? != Sign::Positive {
            return Err(LawError::Domain(
                "the next cone is not counter-clockwise".into(),
            ));
        }
        // does the new cone reach the positive γ₁ axis?
        let a = decide(&det(&v, &e1), "det(v, e1)")?;
        let b = decide(&det(&e1, &next), "det(e1, next)")?;
        let reached = a != Sign::Negative && b != Sign::Negative;
        if reached {
            closes = b == Sign::Zero;
        }
        cones.push(Cone {
            name: String::new(),
            from: v,
            to: next,
            q,
        });
        if reached {
            break;
        }
    }
    let last = cones.last().expect("nonempty");
    let last_image_of_e1 = mat_vec(&last.q, &e1);
    let continuous_at_closure = closes && vec_eq(&last_image_of_e1, &e1, "Q_last e1 − e1")?;
    name_cones(&mut cones)?;
    Ok(Construction {
        cradle,
        cones,
        closes,
        continuous_at_closure,
        last_image_of_e1,
    })
}

/// The closed quadrants (I…IV) that contain a ray (two for a ray on an axis).
fn quadrants<S: Scalar>(v: &Vec2<S>) -> Result<[bool; 4], LawError> {
    let x = decide(&v[0], "γ₁ of a ray")?;
    let y = decide(&v[1], "γ₂ of a ray")?;
    let xp = x != Sign::Negative;
    let xn = x != Sign::Positive;
    let yp = y != Sign::Negative;
    let yn = y != Sign::Positive;
    Ok([xp && yp, xn && yp, xn && yn, xp && yn])
}

/// Names cones after Fig. 4(a): the quadrant (I…IV) that contains the cone and, where a
/// quadrant holds several cones, letters a, b, … counted away from the first quadrant
/// (II counter-clockwise, IV clockwise). A cone in no single quadrant is `C<k>`
/// (k counter-clockwise from C_I = 1).
fn name_cones<S: Scalar>(cones: &mut [Cone<S>]) -> Result<(), LawError> {
    const ROMAN: [&str; 4] = ["I", "II", "III", "IV"];
    let mut quad = Vec::with_capacity(cones.len());
    for c in cones.iter() {
        let (a, b) = (quadrants(&c.from)?, quadrants(&c.to)?);
        quad.push((0..4).find(|&k| a[k] && b[k]));
    }
    let n = cones.len();
    for k in 0..n {
        let name = match quad[k] {
            Some(q) => {
                let same: Vec<usize> = (0..n).filter(|&j| quad[j] == Some(q)).collect();
                if same.len() == 1 {
                    ROMAN[q].to_string()
                } else {
                    let pos = same.iter().position(|&j| j == k).unwrap_or(0);
                    let idx = if q == 3 { same.len() - 1 - pos } else { pos };
                    match u8::try_from(idx).ok().filter(|i| *i < 26) {
                        Some(i) => format!("{}{}", ROMAN[q], (b'a' + i) as char),
                        None => format!("C{}", k + 1),
                    }
                }
            }
            None => format!("C{}", k + 1),
        };
        cones[k].name = name;
    }
    Ok(())
}

/// The Sequential Impact Law for masses m1, m2, m3 as a cone-wise linear map of the whole
/// plane, when the construction of Sect. 3 closes up continuously; a `Domain` error saying
/// how it fails otherwise.
///
/// # Example
///
/// ```
/// use impactkit::arith::Rational;
/// use impactkit::law::sequential::construct_law;
/// let r = |n, d| Rational::new(n, d);
/// let law = construct_law(&[r(1, 1), r(1, 1), r(1, 1)]).unwrap();
/// assert_eq!(law.cones.len(), 6);
/// let e = law.apply(&[r(-1, 1), r(0, 1)]).unwrap();
/// assert_eq!([e.gamma_plus[0].to_string(), e.gamma_plus[1].to_string()], ["0", "1"]);
/// ```
pub fn construct_law<S: Scalar>(masses: &[S; 3]) -> Result<ConeMap<S>, LawError> {
    let c = construct(masses, 64)?;
    if !c.closes {
        return Err(LawError::Domain(format!(
            "the construction does not close: cone {} of {} overlaps C_I (it maps e1 to ({}, {}), C_I maps it to (1, 0))",
            c.cones.len(),
            c.cones.len(),
            c.last_image_of_e1[0],
            c.last_image_of_e1[1]
        )));
    }
    if !c.continuous_at_closure {
        return Err(LawError::Domain(
            "the construction closes but is discontinuous on the positive γ₁ axis".into(),
        ));
    }
    Ok(ConeMap { cones: c.cones })
}
