(** * The propagative impact model: Seghete & Murphey, Sects. II–III

    Written by hand from the paper's equations (not from impactkit's Rust), for three
    coordinates with a diagonal mass matrix M = diag(m1, m2, m3), the systems of the
    paper's cradle claims. Momenta p = q̇ᵀM and contact normals u = Dφᵀ are covectors,
    here triples. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

(** A covector of R³: ((a1, a2), a3). *)
Definition sm_c1 (a : R * R * R) : R := fst (fst a).
Definition sm_c2 (a : R * R * R) : R := snd (fst a).
Definition sm_c3 (a : R * R * R) : R := snd a.

(** (5a): ⟨a, b⟩_g = a M⁻¹ bᵀ, with M = diag(m1, m2, m3) given as the triple [m];
    (5b): ‖u‖²_g = ⟨u, u⟩_g. *)
Definition sm_inner (m a b : R * R * R) : R :=
  sm_c1 a * sm_c1 b / sm_c1 m + sm_c2 a * sm_c2 b / sm_c2 m + sm_c3 a * sm_c3 b / sm_c3 m.

(** (7a–7b): p⁺ = p Γ(u), Γ(u) = I − 2 M⁻¹uᵀu / ‖u‖²_g, i.e.
    p Γ(u) = p − 2 ⟨p, u⟩_g / ‖u‖²_g · u. *)
Definition sm_reflect (m u p : R * R * R) : R * R * R :=
  (sm_c1 p - 2 * sm_inner m p u / sm_inner m u u * sm_c1 u,
   sm_c2 p - 2 * sm_inner m p u / sm_inner m u u * sm_c2 u,
   sm_c3 p - 2 * sm_inner m p u / sm_inner m u u * sm_c3 u).

(** (6): p is feasible for u when ⟨p, u⟩_g ≥ 0 (infeasible when < 0); for one, two or
    three contacts, feasible for every normal: 1 for yes, 0 for no. *)
Definition sm_feasible1 (m u p : R * R * R) : R :=
  if Rle_dec 0 (sm_inner m p u) then 1 else 0.
Definition sm_feasible2 (m u v p : R * R * R) : R :=
  if Rle_dec 0 (sm_inner m p u) then sm_feasible1 m v p else 0.
Definition sm_feasible3 (m u v w p : R * R * R) : R :=
  if Rle_dec 0 (sm_inner m p u) then sm_feasible2 m v w p else 0.

(** (11) for one contact: the g-orthogonal projection of p onto the covectors orthogonal
    to u, p − ⟨p, u⟩_g / ‖u‖²_g · u. *)
Definition sm_plastic1 (m u p : R * R * R) : R * R * R :=
  (sm_c1 p - sm_inner m p u / sm_inner m u u * sm_c1 u,
   sm_c2 p - sm_inner m p u / sm_inner m u u * sm_c2 u,
   sm_c3 p - sm_inner m p u / sm_inner m u u * sm_c3 u).

(** (11) for two contacts: p⁺ = p − a u − b v, the g-orthogonal projection onto the
    covectors orthogonal to u and v: ⟨p⁺, u⟩_g = ⟨p⁺, v⟩_g = 0 is the 2×2 system
    ‖u‖² a + ⟨u, v⟩ b = ⟨p, u⟩, ⟨u, v⟩ a + ‖v‖² b = ⟨p, v⟩, solved by Cramer's rule
    (its determinant ‖u‖²‖v‖² − ⟨u, v⟩² is nonzero for independent normals). *)
Definition sm_plastic_det (m u v : R * R * R) : R :=
  sm_inner m u u * sm_inner m v v - sm_inner m u v ^ 2.
Definition sm_plastic_a (m u v p : R * R * R) : R :=
  (sm_inner m p u * sm_inner m v v - sm_inner m p v * sm_inner m u v) / sm_plastic_det m u v.
Definition sm_plastic_b (m u v p : R * R * R) : R :=
  (sm_inner m p v * sm_inner m u u - sm_inner m p u * sm_inner m u v) / sm_plastic_det m u v.
Definition sm_plastic2 (m u v p : R * R * R) : R * R * R :=
  (sm_c1 p - sm_plastic_a m u v p * sm_c1 u - sm_plastic_b m u v p * sm_c1 v,
   sm_c2 p - sm_plastic_a m u v p * sm_c2 u - sm_plastic_b m u v p * sm_c2 v,
   sm_c3 p - sm_plastic_a m u v p * sm_c3 u - sm_plastic_b m u v p * sm_c3 v).

(** Sanity: unit masses, u = (−1, 1, 0), p = (1, 0, 0) (the left ball of a cradle moving
    right): ⟨p, u⟩_g = −1, ‖u‖²_g = 2, and p Γ(u) = (0, 1, 0), the velocities exchanged, as
    impactkit's [propagative] probe gives ([r1_1 = 0], [r1_2 = 1], [r1_3 = 0]). *)
Lemma sm_reflect_sanity :
  sm_reflect (1, 1, 1) (-1, 1, 0) (1, 0, 0) = (0, 1, 0).
Proof.
  unfold sm_reflect, sm_inner, sm_c1, sm_c2, sm_c3; cbn [fst snd].
  f_equal; [f_equal|]; field.
Qed.

(** Sanity: the same cradle with v = (0, −1, 1) and p = (1, 0, 0): the plastic outcome (11)
    moves the three balls together, (1/3, 1/3, 1/3). *)
Lemma sm_plastic2_sanity :
  sm_plastic2 (1, 1, 1) (-1, 1, 0) (0, -1, 1) (1, 0, 0) = (1/3, 1/3, 1/3).
Proof.
  unfold sm_plastic2, sm_plastic_a, sm_plastic_b, sm_plastic_det, sm_inner, sm_c1, sm_c2, sm_c3;
    cbn [fst snd].
  f_equal; [f_equal|]; field.
Qed.

(** * Sect. VII-A, the billiard break: ball c touching balls a and b at an angle θ

    Coordinates (x_a, y_a, x_b, y_b, x_c, y_c), M = diag(m_a, m_a, m_b, m_b, m_c, m_c).
    The angle enters through t = tan(θ/4) (impactkit's exact geometries):
    cos(θ/2) = (1 − t²)/(1 + t²), sin(θ/2) = 2t/(1 + t²). Ball c sits at the origin, a and
    b touch it at ±θ/2 from the bisector: a = (r_a + r_c)(cos θ/2, sin θ/2),
    b = (r_b + r_c)(cos θ/2, −sin θ/2). *)
Definition sm_bil_ch (t : R) : R := (1 - t ^ 2) / (1 + t ^ 2).
Definition sm_bil_sh (t : R) : R := 2 * t / (1 + t ^ 2).

(** φ_a = |a − c| − (r_a + r_c), so at contact Dφ_a = (n_a, 0, −n_a) with
    n_a = (a − c)/(r_a + r_c); likewise Dφ_b = (0, n_b, −n_b). (31), left:
    ⟨Dφ_a, Dφ_b⟩_g = Dφ_a M⁻¹ Dφ_bᵀ, written out over the six coordinates. *)
Definition sm_bil_inner (ma mb mc ra rb rc t : R) : R :=
  let nax := (ra + rc) * sm_bil_ch t / (ra + rc) in
  let nay := (ra + rc) * sm_bil_sh t / (ra + rc) in
  let nbx := (rb + rc) * sm_bil_ch t / (rb + rc) in
  let nby := - ((rb + rc) * sm_bil_sh t) / (rb + rc) in
  nax * 0 / ma + nay * 0 / ma + 0 * nbx / mb + 0 * nby / mb
  + (- nax) * (- nbx) / mc + (- nay) * (- nby) / mc.

(** (31), middle, as printed:
    ((x_a − x_b)² + (y_a − y_b)² − (r_a + r_c)² − (r_b + r_c)²) / (2 m_c (r_a + r_c)(r_b + r_c)). *)
Definition sm_bil_middle (mc ra rb rc t : R) : R :=
  (((ra + rc) * sm_bil_ch t - (rb + rc) * sm_bil_ch t) ^ 2
   + ((ra + rc) * sm_bil_sh t + (rb + rc) * sm_bil_sh t) ^ 2
   - (ra + rc) ^ 2 - (rb + rc) ^ 2) / (2 * mc * (ra + rc) * (rb + rc)).

(** (31), right: cos θ / m_c, cos θ = cos²(θ/2) − sin²(θ/2). *)
Definition sm_bil_cos (t : R) : R := sm_bil_ch t ^ 2 - sm_bil_sh t ^ 2.

(** The smallest θ at which a and b do not overlap: |ab| = r_a + r_b, by the law of
    cosines cos θ_min = ((r_a + r_c)² + (r_b + r_c)² − (r_a + r_b)²) / (2 (r_a + r_c)(r_b + r_c));
    a and b are apart when cos θ_min − cos θ ≥ 0. *)
Definition sm_bil_overlap (ra rb rc t : R) : R :=
  ((ra + rc) ^ 2 + (rb + rc) ^ 2 - (ra + rb) ^ 2) / (2 * (ra + rc) * (rb + rc)) - sm_bil_cos t.

(** Sanity: unit balls at θ = π/2 (t = tan(π/8) is irrational; θ = 4·atan(1/2), t = 1/2:
    cos(θ/2) = 3/5, sin(θ/2) = 4/5, cos θ = −7/25): the inner product is cos θ/m_c, and the
    printed middle is its negative. *)
Lemma sm_bil_sanity :
  sm_bil_inner 1 1 1 1 1 1 (1/2) = -7/25 /\ sm_bil_middle 1 1 1 1 (1/2) = 7/25.
Proof.
  unfold sm_bil_inner, sm_bil_middle, sm_bil_ch, sm_bil_sh; split; field.
Qed.
