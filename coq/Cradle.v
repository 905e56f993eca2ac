(** * Newton's cradle of three balls: Pasquero (2020), Sects. 3.4, 3.5 and 4.1

    Written by hand from the paper's equations (not from impactkit's Rust). Balls 1, 2, 3
    on a line with masses m1, m2, m3 and velocities ẋ = (ẋ1, ẋ2, ẋ3); the contact of
    balls r, r + 1 is the constraint S_r : x_r − x_{r+1} + 2R ≤ 0 (Sect. 4.1), with the
    covector n_r = e_r − e_{r+1}. The kinetic metric is ⟨a, b⟩ = m1 a1 b1 + m2 a2 b2 +
    m3 a3 b3. A velocity triple is ((ẋ1, ẋ2), ẋ3), read by [sm_c1], [sm_c2], [sm_c3]. *)
From Coq Require Import Reals Lra.
From ImpactKit Require Import Propagative.
Open Scope R_scope.

(** p ∈ λ(S_r) (incoming, the constraint impacted): n_r·ẋ = ẋ_r − ẋ_{r+1} > 0. *)
Definition pq3_rate1 (x1 x2 : R) : R := x1 - x2.
Definition pq3_rate2 (x2 x3 : R) : R := x2 - x3.

(** V⊥_r(p), the component of ẋ orthogonal (in the kinetic metric) to the constraint
    S_r: the projection on M⁻¹n_rᵀ, (n_r·ẋ)/(n_r M⁻¹ n_rᵀ) · M⁻¹n_rᵀ, i.e. s_r times
    (1/m_r at r, −1/m_{r+1} at r + 1) with s_r = (ẋ_r − ẋ_{r+1})/(1/m_r + 1/m_{r+1}). *)
Definition pq3_s1 (m1 m2 x1 x2 : R) : R := pq3_rate1 x1 x2 / (/ m1 + / m2).
Definition pq3_s2 (m2 m3 x2 x3 : R) : R := pq3_rate2 x2 x3 / (/ m2 + / m3).

(** β of (5): ⟨V⊥12(p), V⊥1(p) + V⊥2(p)⟩ / ‖V⊥1(p) + V⊥2(p)‖². V⊥12(p) is the
    orthogonal projection of p on V⊥(S) = V⊥(S1) ⊕ V⊥(S2), which contains
    w = V⊥1(p) + V⊥2(p), so ⟨V⊥12(p), w⟩ = ⟨p, w⟩ (the numerator is written so). With
    w = (s1/m1, (s2 − s1)/m2, −s2/m3): ⟨p, w⟩ = s1 ẋ1 + (s2 − s1) ẋ2 − s2 ẋ3 and
    ‖w‖² = s1²/m1 + (s2 − s1)²/m2 + s2²/m3. *)
Definition pq3_beta (m1 m2 m3 x1 x2 x3 : R) : R :=
  let s1 := pq3_s1 m1 m2 x1 x2 in
  let s2 := pq3_s2 m2 m3 x2 x3 in
  (s1 * x1 + (s2 - s1) * x2 - s2 * x3) / (s1 ^ 2 / m1 + (s2 - s1) ^ 2 / m2 + s2 ^ 2 / m3).

(** One step of the procedure of Sect. 3.5: the velocity p + I(p) with the impulse of the
    asymmetric rule (7) (CORs ε1, ε2; (6) for ε1 = ε2, (5) for ε1 = ε2 = 1):
    −β((1 + ε1)V⊥1 + (1 + ε2)V⊥2) if p is incoming for both constraints, −(1 + ε_r)V⊥_r
    if for S_r alone, 0 if for neither (p is then an exit velocity and is kept). *)
Definition pq3_step (m1 m2 m3 e1 e2 x1 x2 x3 : R) : R * R * R :=
  let s1 := pq3_s1 m1 m2 x1 x2 in
  let s2 := pq3_s2 m2 m3 x2 x3 in
  if Rle_dec (pq3_rate1 x1 x2) 0
  then (if Rle_dec (pq3_rate2 x2 x3) 0
        then (x1, x2, x3)
        else (x1, x2 - (1 + e2) * s2 / m2, x3 + (1 + e2) * s2 / m3))
  else (if Rle_dec (pq3_rate2 x2 x3) 0
        then (x1 - (1 + e1) * s1 / m1, x2 + (1 + e1) * s1 / m2, x3)
        else (x1 - pq3_beta m1 m2 m3 x1 x2 x3 * ((1 + e1) * s1 / m1),
              x2 - pq3_beta m1 m2 m3 x1 x2 x3 * ((1 + e2) * s2 / m2 - (1 + e1) * s1 / m2),
              x3 + pq3_beta m1 m2 m3 x1 x2 x3 * ((1 + e2) * s2 / m3))).

(** Whether p is an exit velocity (incoming for no constraint: the procedure stops), and
    whether the step from p is a multiple impact (incoming for both): 1 for yes, 0 for no. *)
Definition pq3_exit (x1 x2 x3 : R) : R :=
  if Rle_dec (pq3_rate1 x1 x2) 0 then (if Rle_dec (pq3_rate2 x2 x3) 0 then 1 else 0) else 0.
Definition pq3_multiple (x1 x2 x3 : R) : R :=
  if Rle_dec (pq3_rate1 x1 x2) 0 then 0 else (if Rle_dec (pq3_rate2 x2 x3) 0 then 0 else 1).

(** Sanity: unit masses, ε = 1/2, ẋ = (1, 0, 0): a single impact of balls 1 and 2,
    ((1 − ε)/2, (1 + ε)/2, 0) = (1/4, 3/4, 0), the first velocity of Sect. 4.1 (p1) and
    impactkit's [cradle --eps 1/2 --v 1,0,0]. *)
Lemma pq3_step_sanity : pq3_step 1 1 1 (1/2) (1/2) 1 0 0 = (1/4, 3/4, 0).
Proof.
  unfold pq3_step, pq3_s1, pq3_s2, pq3_rate1, pq3_rate2; cbv zeta.
  destruct (Rle_dec (1 - 0) 0); [lra|].
  destruct (Rle_dec (0 - 0) 0); [|lra].
  apply pair_equal_spec; split; [apply pair_equal_spec; split|]; field.
Qed.

(** Sanity: a multiple impact, unit masses, ε = 1, ẋ = (2, 1, 0) (both contacts incoming,
    s1 = s2 = 1/2, w = (1/2, 0, −1/2), β = 1/(1/2) = 2): the ideal rule (5) gives (0, 1, 2),
    as impactkit's [cradle --balls 3 --eps 1 --v0 2,1,0]. *)
Lemma pq3_multiple_sanity : pq3_step 1 1 1 1 1 2 1 0 = (0, 1, 2).
Proof.
  unfold pq3_step, pq3_beta, pq3_s1, pq3_s2, pq3_rate1, pq3_rate2; cbv zeta.
  destruct (Rle_dec (2 - 1) 0); [lra|].
  destruct (Rle_dec (1 - 0) 0); [lra|].
  apply pair_equal_spec; split; [apply pair_equal_spec; split|]; field.
Qed.

(** Sanity: masses (1, 2, 3), ε = 1/2, ẋ = (3, 1, 0), a multiple impact: (7) gives
    (−7/17, 199/170, 87/85), impactkit's exact
    [cradle --balls 3 --eps 1/2 --masses 1,2,3 --v0 3,1,0 --max-steps 1]. *)
Lemma pq3_masses_sanity : pq3_step 1 2 3 (1/2) (1/2) 3 1 0 = (-7/17, 199/170, 87/85).
Proof.
  unfold pq3_step, pq3_beta, pq3_s1, pq3_s2, pq3_rate1, pq3_rate2; cbv zeta.
  destruct (Rle_dec (3 - 1) 0); [lra|].
  destruct (Rle_dec (1 - 0) 0); [lra|].
  apply pair_equal_spec; split; [apply pair_equal_spec; split|]; field.
Qed.

(** * The rules (4) and (7) in R³ with a diagonal mass matrix: Pasquero (2020), Sects. 3.1–3.4

    A constraint's gradient is a covector n = (n1, n2, n3); p ∈ λ(S) (incoming) when
    n·ẋ > 0; V⊥(p) = (n·ẋ)/‖n‖²_g · M⁻¹nᵀ with ‖n‖²_g = n M⁻¹ nᵀ ([sm_inner]); the
    kinetic metric ⟨a, b⟩ = Σ m_i a_i b_i and the energy ½⟨ẋ, ẋ⟩. *)
Definition pq_rate (n v : R * R * R) : R :=
  sm_c1 n * sm_c1 v + sm_c2 n * sm_c2 v + sm_c3 n * sm_c3 v.
Definition pq_perp (m n v : R * R * R) : R * R * R :=
  let s := pq_rate n v / sm_inner m n n in
  (s * (sm_c1 n / sm_c1 m), s * (sm_c2 n / sm_c2 m), s * (sm_c3 n / sm_c3 m)).
Definition pq_kin (m a b : R * R * R) : R :=
  sm_c1 m * sm_c1 a * sm_c1 b + sm_c2 m * sm_c2 a * sm_c2 b + sm_c3 m * sm_c3 a * sm_c3 b.
Definition pq_energy (m v : R * R * R) : R := pq_kin m v v / 2.

(** v − c·a, componentwise. *)
Definition pq_minus (v : R * R * R) (c : R) (a : R * R * R) : R * R * R :=
  (sm_c1 v - c * sm_c1 a, sm_c2 v - c * sm_c2 a, sm_c3 v - c * sm_c3 a).

(** (4): one non-ideal constraint, I(p) = −(1 + ε)V⊥(p) if p ∈ λ(S), 0 otherwise; the
    number of constraints p is incoming for. *)
Definition pq_single (m : R * R * R) (e : R) (n v : R * R * R) : R * R * R :=
  if Rle_dec (pq_rate n v) 0 then v else pq_minus v (1 + e) (pq_perp m n v).
Definition pq_incoming (n v : R * R * R) : R := if Rle_dec (pq_rate n v) 0 then 0 else 1.

(** (7) for two constraints S1, S2 (CORs ε1, ε2): −β((1 + ε1)V⊥1 + (1 + ε2)V⊥2) if p is
    incoming for both, −(1 + ε_i)V⊥_i if for S_i alone, 0 if for neither; β of (5) with
    ⟨V⊥12(p), w⟩ = ⟨p, w⟩ for w = V⊥1 + V⊥2 ∈ V⊥(S) (V⊥12 is the orthogonal projection
    on V⊥(S)). *)
Definition pq_two (m : R * R * R) (e1 e2 : R) (n1 n2 v : R * R * R) : R * R * R :=
  let a := pq_perp m n1 v in
  let b := pq_perp m n2 v in
  let w := (sm_c1 a + sm_c1 b, sm_c2 a + sm_c2 b, sm_c3 a + sm_c3 b) in
  let beta := pq_kin m v w / pq_kin m w w in
  if Rle_dec (pq_rate n1 v) 0
  then (if Rle_dec (pq_rate n2 v) 0 then v else pq_minus v (1 + e2) b)
  else (if Rle_dec (pq_rate n2 v) 0 then pq_minus v (1 + e1) a
        else pq_minus v beta ((1 + e1) * sm_c1 a + (1 + e2) * sm_c1 b,
                              (1 + e1) * sm_c2 a + (1 + e2) * sm_c2 b,
                              (1 + e1) * sm_c3 a + (1 + e2) * sm_c3 b)).

(** Sanity: (7) on the cradle's gradients n1 = (1, −1, 0), n2 = (0, 1, −1) is the
    cradle's step: masses (1, 2, 3), ε = 1/2, ẋ = (3, 1, 0) gives (−7/17, 199/170, 87/85)
    as [pq3_step] and impactkit. *)
Lemma pq_two_sanity :
  pq_two (1, 2, 3) (1/2) (1/2) (1, -1, 0) (0, 1, -1) (3, 1, 0) = (-7/17, 199/170, 87/85).
Proof.
  unfold pq_two, pq_minus, pq_perp, pq_kin, pq_rate, sm_inner, sm_c1, sm_c2, sm_c3;
    cbv zeta; cbn [fst snd].
  destruct (Rle_dec _ 0); [lra|].
  destruct (Rle_dec _ 0); [lra|].
  cbn [fst snd].
  apply pair_equal_spec; split; [apply pair_equal_spec; split|]; field.
Qed.
