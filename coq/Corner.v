(** * The disk in a corner: Fassino & Pasquero (2020), Sects. 1–3

    Written by hand from the paper's equations (not from impactkit's Rust): the corner of
    half-opening α with k = tan α > 0, the velocity v = (ẋ, ẏ), the zones of (3a–3d), the
    ideal rule TR_id (3a–3d), the non-ideal rule TR_nid (13a–13d), and the coordinates
    (ξ̇, η̇) of (7). *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

(** The four zones of the velocity plane, Sect. 1, item 2. *)
Inductive zone := Z0 | Z1 | Z2 | Z12.

(** (3a–3d), (13a–13d): Z0 iff kẋ + ẏ ≤ 0 and kẋ − ẏ ≤ 0; Z1 iff kẋ + ẏ ≤ 0 and
    kẋ − ẏ > 0; Z2 iff kẋ + ẏ > 0 and kẋ − ẏ ≤ 0; Z12 iff both are > 0. *)
Definition zone_of (k x y : R) : zone :=
  if Rle_dec (k * x + y) 0
  then (if Rle_dec (k * x - y) 0 then Z0 else Z1)
  else (if Rle_dec (k * x - y) 0 then Z2 else Z12).

(** The code impactkit's claims give a zone (outputs [zone], [zone1]). *)
Definition zone_code (z : zone) : R :=
  match z with Z0 => 0 | Z1 => 1 | Z2 => 2 | Z12 => 12 end.

(** (3a–3d): the formula the ideal rule applies in zone [z]. *)
Definition tr_id_in (z : zone) (k x y : R) : R * R :=
  match z with
  | Z0 => (x, y)                                                       (* (3a) *)
  | Z1 => ((1 - k^2) / (1 + k^2) * x + 2 * k / (1 + k^2) * y,
           2 * k / (1 + k^2) * x - (1 - k^2) / (1 + k^2) * y)          (* (3b) *)
  | Z2 => ((1 - k^2) / (1 + k^2) * x - 2 * k / (1 + k^2) * y,
           - (2 * k / (1 + k^2)) * x - (1 - k^2) / (1 + k^2) * y)      (* (3c) *)
  | Z12 => ((- k^4 * x^2 + (1 - 2 * k^2) * y^2) / (k^4 * x^2 + y^2) * x,
            (k^2 * (k^2 - 2) * x^2 - y^2) / (k^4 * x^2 + y^2) * y)     (* (3d) *)
  end.

(** TR_id, (3a–3d): the formula of the zone v is in. *)
Definition tr_id (k x y : R) : R * R := tr_id_in (zone_of k x y) k x y.

(** (13a–13d): the formula the non-ideal rule (restitution ε) applies in zone [z]. *)
Definition tr_nid_in (z : zone) (k e x y : R) : R * R :=
  match z with
  | Z0 => (x, y)                                                       (* (13a) *)
  | Z1 => ((1 - e * k^2) / (1 + k^2) * x + (1 + e) * k / (1 + k^2) * y,
           (1 + e) * k / (1 + k^2) * x - (e - k^2) / (1 + k^2) * y)    (* (13b) *)
  | Z2 => ((1 - e * k^2) / (1 + k^2) * x - (1 + e) * k / (1 + k^2) * y,
           - ((1 + e) * k / (1 + k^2)) * x - (e - k^2) / (1 + k^2) * y) (* (13c) *)
  | Z12 => ((- e * k^4 * x^2 + (1 - (1 + e) * k^2) * y^2) / (k^4 * x^2 + y^2) * x,
            (k^2 * (k^2 - (1 + e)) * x^2 - e * y^2) / (k^4 * x^2 + y^2) * y) (* (13d) *)
  end.

(** TR_nid, (13a–13d). *)
Definition tr_nid (k e x y : R) : R * R := tr_nid_in (zone_of k x y) k e x y.

(** (7): ξ̇ = kẋ + ẏ, η̇ = kẋ − ẏ. *)
Definition xi_of (k x y : R) : R := k * x + y.
Definition eta_of (k x y : R) : R := k * x - y.

(** (14a–14d): the non-ideal rule in the coordinates (ξ̇, η̇) of (7), the formula of zone
    [z] (the zone of (ξ̇, η̇): ξ̇ ≤ 0 or > 0, η̇ ≤ 0 or > 0, as in (14a–14d)); [s] is
    ξ̇² + η̇² and [d] the denominator of (14d). *)
Definition tr_nid_xe_in (z : zone) (k e a b : R) : R * R :=
  match z with
  | Z0 => (a, b)                                                       (* (14a) *)
  | Z1 => (a + (1 + e) * (1 - k^2) / (1 + k^2) * b, - e * b)           (* (14b) *)
  | Z2 => (- e * a, b + (1 + e) * (1 - k^2) / (1 + k^2) * a)           (* (14c) *)
  | Z12 =>                                                              (* (14d) *)
      (- (e * (1 + k^2) * (a^2 + b^2) + 2 * (1 - k^2) * a * b)
           / ((1 + k^2) * (a^2 + b^2) - 2 * (1 - k^2) * a * b) * a
         + (1 + e) * ((1 - k^2) * (a^2 + b^2))
           / ((1 + k^2) * (a^2 + b^2) - 2 * (1 - k^2) * a * b) * b,
       (1 + e) * ((1 - k^2) * (a^2 + b^2))
           / ((1 + k^2) * (a^2 + b^2) - 2 * (1 - k^2) * a * b) * a
         - (e * (1 + k^2) * (a^2 + b^2) + 2 * (1 - k^2) * a * b)
           / ((1 + k^2) * (a^2 + b^2) - 2 * (1 - k^2) * a * b) * b)
  end.

(** (7) solved for the velocity: ẋ = (ξ̇ + η̇)/(2k), ẏ = (ξ̇ − η̇)/2. *)
Definition xy_of_xe (k a b : R) : R * R := ((a + b) / (2 * k), (a - b) / 2).

(** TR_nid by (14a–14d): v to (ξ̇, η̇) by (7), the zone's formula, back by (7). *)
Definition tr_nid_xe_in_xy (z : zone) (k e x y : R) : R * R :=
  xy_of_xe k (fst (tr_nid_xe_in z k e (xi_of k x y) (eta_of k x y)))
             (snd (tr_nid_xe_in z k e (xi_of k x y) (eta_of k x y))).

(** Whether a run goes on from zone [z] (it stops in Z0, Sect. 1, item 4), and whether [z]
    is the multiple impact Z12: 1 for yes, 0 for no (outputs [goes_on], [multi]). *)
Definition goes_on_code (z : zone) : R := match z with Z0 => 0 | _ => 1 end.
Definition multi_code (z : zone) : R := match z with Z12 => 1 | _ => 0 end.

(** Pasquero (2018), Sect. 4.2: the components of p orthogonal to the walls
    S1 : kx − y = 0 and S2 : kx + y = 0, V⊥1(p) = (kẋ − ẏ)/(1 + k²) (k, −1) and
    V⊥2(p) = (kẋ + ẏ)/(1 + k²) (k, 1). *)
Definition v1_perp (k x y : R) : R * R :=
  (k / (1 + k^2) * (k * x - y), - (1 / (1 + k^2)) * (k * x - y)).
Definition v2_perp (k x y : R) : R * R :=
  (k / (1 + k^2) * (k * x + y), 1 / (1 + k^2) * (k * x + y)).

(** Sanity: at k = 1/2, ε = 9/10, v = (1, 1/5) (zone Z12: kẋ ± ẏ = 1/2 ± 1/5 > 0), (13d)
    gives impactkit's exact output [corner --k 1/2 --eps 9/10 --v0 1,1/5] of one step. *)
Lemma tr_nid_sanity :
  tr_nid (1/2) (9/10) 1 (1/5) = (-141/410, -897/1025).
Proof.
  unfold tr_nid, zone_of, tr_nid_in.
  destruct (Rle_dec _ 0); [lra|].
  destruct (Rle_dec _ 0); [lra|].
  f_equal; field.
Qed.

(** Sanity: the form (14d) at the same point gives the same velocity as (13d). *)
Lemma tr_nid_xe_sanity :
  tr_nid_xe_in_xy Z12 (1/2) (9/10) 1 (1/5) = (-141/410, -897/1025).
Proof.
  unfold tr_nid_xe_in_xy, xy_of_xe, tr_nid_xe_in, xi_of, eta_of; cbn [fst snd].
  f_equal; field.
Qed.

(** Pasquero (2018), Sect. 3.2 and 4.2: β = ⟨V⊥12, V⊥1 + V⊥2⟩ / ‖V⊥1 + V⊥2‖², with
    V⊥12 = (ẋ, ẏ) in the corner's Euclidean metric (unit mass). *)
Definition beta_of (k x y : R) : R :=
  let (a1, b1) := v1_perp k x y in
  let (a2, b2) := v2_perp k x y in
  (x * (a1 + a2) + y * (b1 + b2)) / ((a1 + a2)^2 + (b1 + b2)^2).

(** Sect. 5, proof of Theorem 5.3: β = (1 − k²)/(1 + k²) (after (14)) and the matrices
    H₁, H₂ of (ξ̇, η̇) over two steps, (Z1 then Z2) and (Z2 then Z1), as displayed:
    H₁ = [[−ε, −βε(1+ε)], [β(1+ε), β²(1+ε)² − ε]],
    H₂ = [[β²(1+ε)² − ε, β(1+ε)], [−βε(1+ε), −ε]]; rows first. *)
Definition fp_beta (k : R) : R := (1 - k^2) / (1 + k^2).
Definition fp_h1 (k e : R) : (R * R) * (R * R) :=
  ((- e, - (fp_beta k * e * (1 + e))),
   (fp_beta k * (1 + e), fp_beta k ^ 2 * (1 + e) ^ 2 - e)).
Definition fp_h2 (k e : R) : (R * R) * (R * R) :=
  ((fp_beta k ^ 2 * (1 + e) ^ 2 - e, fp_beta k * (1 + e)),
   (- (fp_beta k * e * (1 + e)), - e)).

(** Sanity: H₁ at k = 1/2, ε = 9/10 (β = 3/5) against impactkit's law
    ([corner::h_matrices]): h1_12 = −(3/5)(9/10)(19/10) = −513/500 and
    h1_22 = (3/5)²(19/10)² − 9/10 = 999/2500. *)
Lemma fp_h1_sanity :
  fp_h1 (1/2) (9/10) = ((-9/10, -513/500), (57/50, 999/2500)).
Proof. unfold fp_h1, fp_beta. f_equal; f_equal; field. Qed.

(** Sect. 5, before Theorem 5.3: the spectral radius ρ(A), "the largest modulus of its
    eigenvalues", of a 2×2 matrix with trace t and determinant d. Its eigenvalues are the
    roots of λ² − tλ + d: real where t² − 4d ≥ 0, the larger modulus (|t| + √(t² − 4d))/2;
    else a conjugate pair, each of modulus √d. *)
Definition fp_rho2 (t d : R) : R :=
  if Rle_dec 0 (t ^ 2 - 4 * d) then (Rabs t + sqrt (t ^ 2 - 4 * d)) / 2 else sqrt d.

(** ρ(H₁) of the proof of Theorem 5.3 and of Remark 9. *)
Definition fp_rho (k e : R) : R :=
  fp_rho2 (fst (fst (fp_h1 k e)) + snd (snd (fp_h1 k e)))
          (fst (fst (fp_h1 k e)) * snd (snd (fp_h1 k e))
           - snd (fst (fp_h1 k e)) * fst (snd (fp_h1 k e))).

(** Sanity: det H₁ = ε² (the complex case's ρ = ε of the proof of Theorem 5.3). *)
Lemma fp_h1_det : forall k e,
  fst (fst (fp_h1 k e)) * snd (snd (fp_h1 k e)) - snd (fst (fp_h1 k e)) * fst (snd (fp_h1 k e))
  = e ^ 2.
Proof. intros. unfold fp_h1. cbn [fst snd]. ring. Qed.

(** Pasquero (2020), Sects. 3.2–3.4, the characterizations (5), (6), (7) on the corner of
    Sect. 4.2 (M = I; S1 : kx − y = 0, S2 : kx + y = 0). p ∈ λ(S_i), p incoming for S_i,
    is p(S_i) > 0 with p(S1) = kẋ − ẏ and p(S2) = kẋ + ẏ, (9). With the coefficients
    c_i = 2 in (5), 1 + ε in (6) and 1 + ε_i in (7), the impulse I(p) is
    −β(c₁V⊥1(p) + c₂V⊥2(p)) if p ∈ λ(S1) and p ∈ λ(S2), −c_i V⊥i(p) if p ∈ λ(S_i) alone,
    0 if p is in neither. *)
Definition pq_impulse (c1 c2 k x y : R) : R * R :=
  if Rle_dec (k * x - y) 0
  then (if Rle_dec (k * x + y) 0
        then (0, 0)
        else (- c2 * fst (v2_perp k x y), - c2 * snd (v2_perp k x y)))
  else (if Rle_dec (k * x + y) 0
        then (- c1 * fst (v1_perp k x y), - c1 * snd (v1_perp k x y))
        else (- beta_of k x y * (c1 * fst (v1_perp k x y) + c2 * fst (v2_perp k x y)),
              - beta_of k x y * (c1 * snd (v1_perp k x y) + c2 * snd (v2_perp k x y)))).

(** The velocity after one application, p + I(p), of (5) (c_i = 2), (6) (c_i = 1 + ε)
    and (7) (c_i = 1 + ε_i). *)
Definition pq_after (c1 c2 k x y : R) : R * R :=
  (x + fst (pq_impulse c1 c2 k x y), y + snd (pq_impulse c1 c2 k x y)).
Definition pq_ideal (k x y : R) : R * R := pq_after 2 2 k x y.
Definition pq_symmetric (k e x y : R) : R * R := pq_after (1 + e) (1 + e) k x y.
Definition pq_asymmetric (k e1 e2 x y : R) : R * R := pq_after (1 + e1) (1 + e2) k x y.

(** The number of constraints p is incoming for, (9). *)
Definition pq_impacts (k x y : R) : R :=
  (if Rle_dec (k * x - y) 0 then 0 else 1) + (if Rle_dec (k * x + y) 0 then 0 else 1).

(** Whether p is incoming for some constraint (the iteration goes on: p is not in Z0) and
    whether for both (a multiple impact, Z12), (9): 1 for yes, 0 for no. *)
Definition pq_goes_on (k x y : R) : R :=
  if Rle_dec (k * x - y) 0 then (if Rle_dec (k * x + y) 0 then 0 else 1) else 1.
Definition pq_both (k x y : R) : R :=
  if Rle_dec (k * x - y) 0 then 0 else (if Rle_dec (k * x + y) 0 then 0 else 1).

(** Pasquero (2020), Sect. 4.2, the corner's iterative rule (10), one step in zone [z]:
    Z0 keeps p; Z1: p − (1 + ε₁)V⊥1(p); Z2: p − (1 + ε₂)V⊥2(p);
    Z12: p − β((1 + ε₁)V⊥1(p) + (1 + ε₂)V⊥2(p)). *)
Definition pq_rule10_in (z : zone) (k e1 e2 x y : R) : R * R :=
  match z with
  | Z0 => (x, y)
  | Z1 => (x - (1 + e1) * fst (v1_perp k x y), y - (1 + e1) * snd (v1_perp k x y))
  | Z2 => (x - (1 + e2) * fst (v2_perp k x y), y - (1 + e2) * snd (v2_perp k x y))
  | Z12 => (x - beta_of k x y * ((1 + e1) * fst (v1_perp k x y) + (1 + e2) * fst (v2_perp k x y)),
            y - beta_of k x y * ((1 + e1) * snd (v1_perp k x y) + (1 + e2) * snd (v2_perp k x y)))
  end.

(** (10) in the zone of p, (9). *)
Definition pq_rule10 (k e1 e2 x y : R) : R * R := pq_rule10_in (zone_of k x y) k e1 e2 x y.

(** Sanity: (7) at k = 1/2, ε₁ = ε₂ = 9/10, v = (1, 1/5) (in Z12) is FP's (13d) there,
    impactkit's exact output (-141/410, -897/1025). *)
Lemma pq_asymmetric_sanity :
  pq_asymmetric (1/2) (9/10) (9/10) 1 (1/5) = (-141/410, -897/1025).
Proof.
  unfold pq_asymmetric, pq_after, pq_impulse, beta_of, v1_perp, v2_perp; cbn [fst snd].
  destruct (Rle_dec _ 0); [lra|].
  destruct (Rle_dec _ 0); [lra|].
  cbn [fst snd]. f_equal; field.
Qed.

(** FP Sect. 2.2, (6a)–(6d): the zones in terms of the angle φ of v = (ẋ, ẏ) ≠ 0, with
    tan α = k, tan φ = ẏ/ẋ, cot φ = ẋ/ẏ and the signs of cos φ, sin φ those of ẋ, ẏ;
    each condition as printed, 1 where it holds, 0 elsewhere (a quotient is formed only
    where the first condition makes its divisor nonzero; a < b is written ¬(b ≤ a), the
    comparison our tactics decide). *)
Definition fp6_in_a (k x y : R) : R :=                  (* (6a): cos φ < 0, |tan φ| ≤ tan α *)
  if Rle_dec 0 x then 0 else (if Rle_dec (Rabs (y / x)) k then 1 else 0).
Definition fp6_in_b (k x y : R) : R :=          (* (6b): sin φ < 0, −cot α < cot φ ≤ cot α *)
  if Rle_dec 0 y then 0
  else (if Rle_dec (x / y) (- / k) then 0 else (if Rle_dec (x / y) (/ k) then 1 else 0)).
Definition fp6_in_c (k x y : R) : R :=          (* (6c): sin φ > 0, −cot α < cot φ ≤ cot α *)
  if Rle_dec y 0 then 0
  else (if Rle_dec (x / y) (- / k) then 0 else (if Rle_dec (x / y) (/ k) then 1 else 0)).
Definition fp6_in_d (k x y : R) : R :=                  (* (6d): cos φ > 0, |tan φ| < tan α *)
  if Rle_dec x 0 then 0 else (if Rle_dec k (Rabs (y / x)) then 0 else 1).

(** How many of (6a)–(6d) hold, and the zone of the first that does (−1 if none). *)
Definition fp6_count (k x y : R) : R :=
  fp6_in_a k x y + fp6_in_b k x y + fp6_in_c k x y + fp6_in_d k x y.
Definition fp6_first (k x y : R) : R :=
  if Rle_dec (fp6_in_a k x y) 0 then
    (if Rle_dec (fp6_in_b k x y) 0 then
       (if Rle_dec (fp6_in_c k x y) 0 then
          (if Rle_dec (fp6_in_d k x y) 0 then -1 else 12)
        else 2)
     else 1)
  else 0.
