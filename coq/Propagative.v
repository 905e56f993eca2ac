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
