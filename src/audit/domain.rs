//! The input domain of an audit: every parameter is one value, a range `a..b` or a list
//! `a,b,c` of input-language expressions; a later parameter's expressions may name an
//! earlier one (`--direction "-alpha..alpha"`). Points are taken on a grid or from a
//! reproducible quasi-random sequence, and every point is written back as expressions, so
//! that one command of impactkit reproduces it.

use crate::input::InputError;
use crate::lang::split_list;

/// One parameter's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Axis {
    /// A single expression.
    Value(String),
    /// The closed range from `lo` to `hi` (`lo < hi`).
    Range { lo: String, hi: String },
    /// A list of expressions.
    List(Vec<String>),
}

/// The position of `..` outside parentheses, if any.
fn range_dots(src: &str) -> Option<usize> {
    let mut depth = 0i32;
    let b = src.as_bytes();
    for i in 0..b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'.' if depth == 0 && b.get(i + 1) == Some(&b'.') => return Some(i),
            _ => {}
        }
    }
    None
}

impl Axis {
    /// Reads `a..b`, a list `a|b|c` (or `a,b,c`) or `a` for `option`.
    pub fn parse(src: &str, option: &str) -> Result<Axis, InputError> {
        let bad = |why: &str| InputError::new(option, why);
        // a list is "a|b|c" in every audit option; "a,b,c" too where one value is taken
        let entries = |src| match super::split_top(src, '|') {
            bar if bar.len() > 1 => bar,
            _ => split_list(src),
        };
        if let Some(i) = range_dots(src) {
            let (lo, hi) = (src[..i].trim(), src[i + 2..].trim());
            if lo.is_empty() || hi.is_empty() {
                return Err(bad("a range needs both ends, as in \"0..1\""));
            }
            if range_dots(hi).is_some() || entries(src).len() > 1 {
                return Err(bad("give a range \"a..b\" or a list \"a|b|c\", not both"));
            }
            return Ok(Axis::Range {
                lo: lo.to_string(),
                hi: hi.to_string(),
            });
        }
        let parts = entries(src);
        if parts.iter().any(|p| p.is_empty()) {
            return Err(bad(
                "an empty value (expected \"a\", \"a..b\" or \"a|b|c\")",
            ));
        }
        if parts.len() > crate::input::caps::LIST {
            return Err(bad(&format!(
                "{} entries, more than {} (the limit of a list)",
                parts.len(),
                crate::input::caps::LIST
            )));
        }
        Ok(match parts.as_slice() {
            [one] => Axis::Value(one.to_string()),
            _ => Axis::List(parts.iter().map(|p| p.to_string()).collect()),
        })
    }

    /// Whether the axis is given in multiples of π: every end or entry b·π with rational
    /// b (`0`, `pi/16`, `3*pi/8`), one of them nonzero; its figure axis is labelled so.
    pub fn in_pi(&self) -> bool {
        use crate::lang::{parse, pi_linear};
        use num_traits::Zero;
        let ends: Vec<&String> = match self {
            Axis::Value(v) => vec![v],
            Axis::Range { lo, hi } => vec![lo, hi],
            Axis::List(xs) => xs.iter().collect(),
        };
        let pi = |e: &String| parse(e).ok().as_ref().and_then(pi_linear);
        let forms: Option<Vec<_>> = ends.into_iter().map(pi).collect();
        forms.is_some_and(|f| {
            f.iter().all(|(a, _)| a.is_zero()) && f.iter().any(|(_, b)| !b.is_zero())
        })
    }

    /// Whether the axis varies (a range, or a list of two or more entries).
    pub fn varies(&self) -> bool {
        !matches!(self, Axis::Value(_))
    }

    /// The expression at coordinate `t` ∈ [0, 1]: `lo + (hi - lo)·t` for a range (the
    /// ends themselves at t = 0 and 1), entry ⌊t·len⌋ of a list (the last at t = 1).
    /// Where both ends are rationals or a + b·π with rational a, b, the point is written
    /// exactly in that form (`3*pi/8`, `2/5`), which every backend then reads as it
    /// reads any input (an `f64` run rounds it once, as a user typing it would).
    pub fn at(&self, t: &Frac) -> String {
        match self {
            Axis::Value(v) => v.clone(),
            Axis::Range { lo, hi } => {
                if t.num == 0 {
                    lo.clone()
                } else if t.num == t.den {
                    hi.clone()
                } else {
                    short_point(lo, hi, t)
                        .unwrap_or_else(|| format!("({lo})+(({hi})-({lo}))*({t})"))
                }
            }
            Axis::List(xs) => xs[t.index(xs.len())].clone(),
        }
    }
}

/// `lo + (hi − lo)·t` exactly, when both ends are of the form a + b·π.
fn short_point(lo: &str, hi: &str, t: &Frac) -> Option<String> {
    use crate::lang::{format_pi_linear, parse, pi_linear};
    use num_bigint::BigInt;
    let (l, h) = (pi_linear(&parse(lo).ok()?)?, pi_linear(&parse(hi).ok()?)?);
    let t = num_rational::BigRational::new(BigInt::from(t.num), BigInt::from(t.den));
    let at = |a: &num_rational::BigRational, b: &num_rational::BigRational| a + (b - a) * &t;
    Some(format_pi_linear(&(at(&l.0, &h.0), at(&l.1, &h.1))))
}

/// A coordinate t = num/den ∈ [0, 1], both exactly representable in `f64` (< 2⁵³), so
/// that every backend reads the same number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frac {
    pub num: u64,
    pub den: u64,
}

impl Frac {
    /// Entry ⌊t·len⌋ of a list of `len` entries (the last one at t = 1).
    pub fn index(&self, len: usize) -> usize {
        let i = (u128::from(self.num) * len as u128 / u128::from(self.den)) as usize;
        i.min(len - 1)
    }

    /// t in `f64`, as the input language reads `num/den` (both exact, one rounding).
    pub fn to_f64(&self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl std::fmt::Display for Frac {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// `src` with every whole-word occurrence of the identifier `name` replaced by `(value)`.
pub fn substitute(src: &str, name: &str, value: &str) -> String {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(src.len());
    let mut rest = src;
    let mut prev: Option<char> = None;
    while let Some(i) = rest.find(name) {
        let before = rest[..i].chars().next_back().or(prev);
        let after = rest[i + name.len()..].chars().next();
        out.push_str(&rest[..i]);
        if before.is_some_and(ident) || after.is_some_and(ident) {
            out.push_str(name);
        } else {
            out.push('(');
            out.push_str(value);
            out.push(')');
        }
        prev = name.chars().next_back();
        rest = &rest[i + name.len()..];
    }
    out.push_str(rest);
    out
}

/// How the points of the domain are chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// `--grid N1xN2x…`: Nᵢ evenly spaced points on range i, ends included (one point:
    /// the midpoint); every entry of every list.
    Grid(Vec<u64>),
    /// `--samples N --seed S`: the first N points of the additive recurrence
    /// t = frac(s + i·a) of Roberts (2018) (a = powers of 1/φ_d, φ_d the real root of
    /// x^(d+1) = x + 1), with a random shift s drawn from the seed; coordinates are
    /// multiples of 2⁻⁵³; a list takes entry ⌊t·len⌋.
    Quasi { samples: u64, seed: u64 },
}

/// The largest number of points of one audit.
pub const MAX_POINTS: u64 = 100_000_000;

/// `--grid "N1xN2x…"`.
pub fn parse_grid(src: &str) -> Result<Vec<u64>, InputError> {
    let bad = |why: String| InputError::new("--grid", why);
    src.split(['x', 'X'])
        .map(|p| {
            let n: u64 = p.trim().parse().map_err(|_| {
                bad(format!(
                    "`{p}` is not a whole number (expected \"N1xN2x...\")"
                ))
            })?;
            if n == 0 {
                return Err(bad("a grid of zero points".into()));
            }
            Ok(n)
        })
        .collect()
}

fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The increments a_j·2⁶⁴ of the R_d sequence in `d` dimensions.
fn roberts_increments(d: usize) -> Vec<u64> {
    // φ_d: the real root of x^(d+1) = x + 1, by Newton's method from 2
    let mut g = 2.0f64;
    for _ in 0..64 {
        let f = g.powi(d as i32 + 1) - g - 1.0;
        let df = (d as f64 + 1.0) * g.powi(d as i32) - 1.0;
        g -= f / df;
    }
    (1..=d)
        .map(|j| {
            let a = (1.0 / g).powi(j as i32).fract();
            (a * 2f64.powi(64)) as u64
        })
        .collect()
}

/// A sampling of the varying axes (`ranges` flags each: range or list of `len`).
#[derive(Clone, Debug)]
pub struct Points {
    sampling: Sampling,
    /// Per varying axis: `None` for a range, `Some(len)` for a list.
    axes: Vec<Option<usize>>,
    increments: Vec<u64>,
    shifts: Vec<u64>,
    /// Points per varying axis (grid).
    sizes: Vec<u64>,
}

impl Points {
    /// The points of `sampling` over axes `axes`; checks the grid's shape.
    pub fn new(sampling: Sampling, axes: Vec<Option<usize>>) -> Result<Points, InputError> {
        if let Sampling::Grid(g) = &sampling {
            let ranges = axes.iter().filter(|a| a.is_none()).count();
            if g.len() != ranges {
                return Err(InputError::new(
                    "--grid",
                    format!(
                        "{} counts for {} ranges (give one count per range, in the order of the options; lists are taken whole)",
                        g.len(),
                        ranges
                    ),
                ));
            }
        }
        let d = axes.len();
        let (increments, shifts) = match &sampling {
            Sampling::Quasi { seed, .. } => (
                roberts_increments(d),
                (0..d as u64)
                    .map(|j| splitmix64(seed.wrapping_mul(0x100).wrapping_add(j)))
                    .collect(),
            ),
            Sampling::Grid(_) => (Vec::new(), Vec::new()),
        };
        let sizes = match &sampling {
            Sampling::Grid(g) => {
                let mut it = g.iter();
                axes.iter()
                    .map(|a| match a {
                        Some(len) => *len as u64,
                        None => *it.next().unwrap_or(&1),
                    })
                    .collect()
            }
            Sampling::Quasi { .. } => Vec::new(),
        };
        let p = Points {
            sampling,
            axes,
            increments,
            shifts,
            sizes,
        };
        if p.len() > MAX_POINTS {
            return Err(InputError::new(
                match p.sampling {
                    Sampling::Grid(_) => "--grid",
                    Sampling::Quasi { .. } => "--samples",
                },
                format!("{} points, more than {MAX_POINTS}", p.len()),
            ));
        }
        if p.is_empty() {
            return Err(InputError::new("--samples", "zero points"));
        }
        Ok(p)
    }

    /// The number of points.
    pub fn len(&self) -> u64 {
        match &self.sampling {
            Sampling::Quasi { samples, .. } => *samples,
            Sampling::Grid(_) => self
                .sizes
                .iter()
                .fold(1u64, |acc, n| acc.saturating_mul(*n)),
        }
    }

    /// Whether there are no points.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The coordinates of point `i` (one per varying axis).
    pub fn point(&self, i: u64) -> Vec<Frac> {
        let mut out = Vec::new();
        self.point_into(i, &mut out);
        out
    }

    /// The coordinates of point `i`, written into `out` (no allocation once it has room).
    #[inline]
    pub fn point_into(&self, i: u64, out: &mut Vec<Frac>) {
        out.clear();
        match &self.sampling {
            Sampling::Quasi { .. } => {
                for j in 0..self.axes.len() {
                    let u = self.shifts[j]
                        .wrapping_add(i.wrapping_add(1).wrapping_mul(self.increments[j]));
                    out.push(dyadic(u >> 11, 53));
                }
            }
            Sampling::Grid(_) => {
                // mixed radix, the first axis slowest
                let mut rest = i;
                let n_axes = self.axes.len();
                out.resize(n_axes, Frac { num: 0, den: 1 });
                for k in (0..n_axes).rev() {
                    let n = self.sizes[k];
                    let j = rest % n;
                    rest /= n;
                    out[k] = match self.axes[k] {
                        // entry j of a list of n: t = (j + 1/2)/n
                        Some(_) => Frac {
                            num: 2 * j + 1,
                            den: 2 * n,
                        },
                        None if n == 1 => Frac { num: 1, den: 2 },
                        None => Frac { num: j, den: n - 1 },
                    };
                }
            }
        }
    }
}

/// m/2^e in lowest terms (2^e ≤ 2⁵³).
fn dyadic(m: u64, e: u32) -> Frac {
    let z = m.trailing_zeros().min(e);
    Frac {
        num: m >> z,
        den: 1 << (e - z),
    }
}

/// `--shard i/n`: this process takes the points with index ≡ i (mod n).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole domain.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Reads `i/n` with 0 ≤ i < n.
    pub fn parse(src: &str) -> Result<Shard, InputError> {
        let bad = |why: &str| InputError::new("--shard", why);
        let (i, n) = src
            .split_once('/')
            .ok_or_else(|| bad("expected \"i/n\" (shard i of n, 0 <= i < n)"))?;
        let i: u64 = i
            .trim()
            .parse()
            .map_err(|_| bad("i of \"i/n\" must be a whole number"))?;
        let n: u64 = n
            .trim()
            .parse()
            .map_err(|_| bad("n of \"i/n\" must be a whole number"))?;
        if n == 0 {
            return Err(bad("n of \"i/n\" must be at least 1"));
        }
        if i >= n {
            return Err(bad(&format!(
                "shard {i} of {n}: i must be below n (shards are 0..{n})"
            )));
        }
        Ok(Shard { index: i, count: n })
    }

    /// The number of this shard's points among `len`.
    pub fn len(&self, len: u64) -> u64 {
        if len > self.index {
            (len - self.index).div_ceil(self.count)
        } else {
            0
        }
    }

    /// The indices of this shard among `len` points.
    pub fn indices(&self, len: u64) -> impl Iterator<Item = u64> + '_ {
        (self.index..len).step_by(self.count as usize)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axes_ranges_lists_and_substitution() {
        assert_eq!(
            Axis::parse("-alpha..alpha+pi/2", "--direction").unwrap(),
            Axis::Range {
                lo: "-alpha".into(),
                hi: "alpha+pi/2".into()
            }
        );
        assert_eq!(
            Axis::parse("0.5, 0.9,1", "--eps").unwrap(),
            Axis::List(vec!["0.5".into(), "0.9".into(), "1".into()])
        );
        assert_eq!(
            Axis::parse("atan(1/2)", "--alpha").unwrap(),
            Axis::Value("atan(1/2)".into())
        );
        assert!(Axis::parse("0..", "--eps")
            .unwrap_err()
            .to_string()
            .contains("both ends"));
        assert_eq!(
            substitute("-alpha+alphabet*alpha", "alpha", "pi/16"),
            "-(pi/16)+alphabet*(pi/16)"
        );
        let r = Axis::parse("0..1", "--eps").unwrap();
        assert_eq!(r.at(&Frac { num: 1, den: 4 }), "1/4");
        let d = Axis::parse("-alpha..pi/2", "--direction").unwrap();
        assert_eq!(
            d.at(&Frac { num: 1, den: 4 }),
            "(-alpha)+((pi/2)-(-alpha))*(1/4)"
        );
        let d = Axis::parse("0..pi/2", "--direction").unwrap();
        assert_eq!(d.at(&Frac { num: 3, den: 4 }), "3*pi/8");
        assert_eq!(r.at(&Frac { num: 1, den: 1 }), "1");
    }

    #[test]
    fn grids_cover_ends_and_lists_whole() {
        let p = Points::new(Sampling::Grid(vec![3]), vec![None, Some(2)]).unwrap();
        assert_eq!(p.len(), 6);
        let pts: Vec<Vec<Frac>> = (0..6).map(|i| p.point(i)).collect();
        assert_eq!(
            pts[0],
            vec![Frac { num: 0, den: 2 }, Frac { num: 1, den: 4 }]
        );
        assert_eq!(
            pts[5],
            vec![Frac { num: 2, den: 2 }, Frac { num: 3, den: 4 }]
        );
        assert_eq!(Axis::List(vec!["a".into(), "b".into()]).at(&pts[5][1]), "b");
        assert!(Points::new(Sampling::Grid(vec![3, 3]), vec![None]).is_err());
        assert!(parse_grid("10x0")
            .unwrap_err()
            .to_string()
            .contains("zero points"));
    }

    #[test]
    fn quasi_random_points_are_reproducible_dyadic_and_spread() {
        let p = Points::new(
            Sampling::Quasi {
                samples: 1000,
                seed: 7,
            },
            vec![None, None],
        )
        .unwrap();
        let q = Points::new(
            Sampling::Quasi {
                samples: 1000,
                seed: 7,
            },
            vec![None, None],
        )
        .unwrap();
        assert_eq!(p.point(123), q.point(123));
        let mut counts = [0u32; 4];
        for i in 0..1000 {
            let t = p.point(i);
            assert!((1u64 << 53).is_multiple_of(t[0].den) && t[0].num <= t[0].den);
            counts[(t[0].to_f64() * 2.0) as usize * 2 + (t[1].to_f64() * 2.0) as usize] += 1;
        }
        // a low-discrepancy sequence fills the four quarters almost evenly
        assert!(
            counts.iter().all(|&c| (240..=260).contains(&c)),
            "{counts:?}"
        );
    }

    #[test]
    fn shards_partition_the_points() {
        assert_eq!(Shard::parse("2/3").unwrap(), Shard { index: 2, count: 3 });
        assert!(Shard::parse("3/3")
            .unwrap_err()
            .to_string()
            .contains("below n"));
        let all: Vec<u64> = (0..3)
            .flat_map(|i| Shard { index: i, count: 3 }.indices(10).collect::<Vec<_>>())
            .collect();
        let mut sorted = all.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
    }
}
