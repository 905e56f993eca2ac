(** * The Sequential Impact Law of the 3-ball cradle: Winandy & Leine, Sects. 2–3

    Written by hand from the paper's equations (not from impactkit's Rust), for three
    balls of equal mass m: the contact velocities γ = (γ1, γ2) of (2), the Delassus matrix
    G = WᵀM⁻¹W of (6), the six cones and matrices Q_i of (20)–(23) with the law (19), the
    impulse Λ = G⁻¹(γ⁺ − γ⁻) of (6), and for comparison the generalised Newton and Poisson
    laws of Sect. 2 ([6, 7]) with restitution e, as linear complementarity problems of two
    contacts. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

(** (6) with M = diag(m, m, m) and W of (3): G = (1/m) [[2, −1], [−1, 2]]. *)
Definition wl_g11 (m : R) : R := 2 / m.
Definition wl_g12 (m : R) : R := - (1 / m).
Definition wl_g22 (m : R) : R := 2 / m.

(** The cones of Fig. 4(a) in the (γ1⁻, γ2⁻)-plane, with the boundary rays (the axes and
    the directions (−1, 1), (1, −1) of (22)) given to one side; by P1 (continuity) both
    sides' matrices agree on a ray. *)
Inductive wl_cone := CI | CIIa | CIIb | CIII | CIVa | CIVb.

Definition wl_cone_of (g1 g2 : R) : wl_cone :=
  if Rle_dec 0 g1
  then (if Rle_dec 0 g2 then CI
        else if Rle_dec 0 (g1 + g2) then CIVa else CIVb)
  else (if Rle_dec 0 g2
        then (if Rle_dec 0 (g1 + g2) then CIIa else CIIb)
        else CIII).

(** (23): the matrix Q_i of each cone, applied to γ⁻: (19) γ⁺ = Q_i γ⁻. *)
Definition wl_apply (c : wl_cone) (g1 g2 : R) : R * R :=
  match c with
  | CI => (g1, g2)                      (* (20) *)
  | CIIa => (- g1, g1 + g2)             (* (21) *)
  | CIIb => (g2, - g1 - g2)
  | CIII => (- g2, - g1)
  | CIVa => (g1 + g2, - g2)
  | CIVb => (- g1 - g2, g1)
  end.

(** (19): the Sequential Impact Law. *)
Definition wl_law (g1 g2 : R) : R * R := wl_apply (wl_cone_of g1 g2) g1 g2.

(** Whether [c] is the cone of γ⁻: 1 for yes, 0 for no (outputs [in_I] .. [in_IVb]). *)
Definition wl_in (c : wl_cone) (g1 g2 : R) : R :=
  match c, wl_cone_of g1 g2 with
  | CI, CI | CIIa, CIIa | CIIb, CIIb | CIII, CIII | CIVa, CIVa | CIVb, CIVb => 1
  | _, _ => 0
  end.

(** (6): Λ = G⁻¹(γ⁺ − γ⁻), with G⁻¹ = (m/3) [[2, 1], [1, 2]]. *)
Definition wl_impulse (m d1 d2 : R) : R * R :=
  (m / 3 * (2 * d1 + d2), m / 3 * (d1 + 2 * d2)).

(** The linear complementarity problem of two contacts, 0 ≤ w = q + G z ⊥ z ≥ 0 with G
    positive definite (unique solution), solved by its four active sets. *)
Definition wl_lcp (g11 g12 g22 q1 q2 : R) : R * R :=
  if Rle_dec 0 q1 then
    (if Rle_dec 0 q2 then (0, 0)
     else if Rle_dec 0 (q1 - g12 * q2 / g22) then (0, - q2 / g22)
     else ((- q1 * g22 + q2 * g12) / (g11 * g22 - g12 ^ 2),
           (- q2 * g11 + q1 * g12) / (g11 * g22 - g12 ^ 2)))
  else
    (if Rle_dec 0 (q2 - g12 * q1 / g11) then (- q1 / g11, 0)
     else if Rle_dec 0 q2 then
       ((- q1 * g22 + q2 * g12) / (g11 * g22 - g12 ^ 2),
        (- q2 * g11 + q1 * g12) / (g11 * g22 - g12 ^ 2))
     else if Rle_dec 0 (q1 - g12 * q2 / g22) then (0, - q2 / g22)
     else ((- q1 * g22 + q2 * g12) / (g11 * g22 - g12 ^ 2),
           (- q2 * g11 + q1 * g12) / (g11 * g22 - g12 ^ 2))).

(** γ⁺ = γ⁻ + G Λ. *)
Definition wl_after (m g1 g2 l1 l2 : R) : R * R :=
  (g1 + wl_g11 m * l1 + wl_g12 m * l2, g2 + wl_g12 m * l1 + wl_g22 m * l2).

(** The generalised Newton law: 0 ≤ γ⁺ + e γ⁻ ⊥ Λ ≥ 0, i.e. the LCP with q = (1 + e)γ⁻. *)
Definition wl_newton (m e g1 g2 : R) : R * R :=
  let l := wl_lcp (wl_g11 m) (wl_g12 m) (wl_g22 m) ((1 + e) * g1) ((1 + e) * g2) in
  wl_after m g1 g2 (fst l) (snd l).

(** The generalised Poisson law: compression 0 ≤ γ⁻ + GΛ_C ⊥ Λ_C ≥ 0, then expansion
    0 ≤ γ⁺ ⊥ Λ_E − eΛ_C ≥ 0 with γ⁺ = γ⁻ + G(Λ_C + Λ_E). *)
Definition wl_poisson (m e g1 g2 : R) : R * R :=
  let c := wl_lcp (wl_g11 m) (wl_g12 m) (wl_g22 m) g1 g2 in
  let q := wl_after m g1 g2 ((1 + e) * fst c) ((1 + e) * snd c) in
  let z := wl_lcp (wl_g11 m) (wl_g12 m) (wl_g22 m) (fst q) (snd q) in
  wl_after m g1 g2 ((1 + e) * fst c + fst z) ((1 + e) * snd c + snd z).

(** Sanity: m = 1, γ⁻ = (−2, 1) (the point A of the ABC-cycle (45) with v = 1) lies in
    C_IIb (γ2 > 0, γ1 + γ2 < 0) and (19) gives γ⁺ = Q_IIb γ⁻ = (1, 1), as impactkit's
    [sequential --g1 -2 --g2 1]. *)
Lemma wl_law_sanity : wl_law (-2) 1 = (1, 1).
Proof.
  unfold wl_law, wl_cone_of, wl_apply.
  destruct (Rle_dec 0 (-2)); [lra|].
  destruct (Rle_dec 0 1); [|lra].
  destruct (Rle_dec 0 (-2 + 1)); [lra|].
  f_equal; lra.
Qed.

(** The G⁻¹-norm of Theorem 1, ‖x‖²_{G⁻¹} = xᵀG⁻¹x = (m/3)(2x1² + 2x1x2 + 2x2²). *)
Definition wl_norm2 (m x1 x2 : R) : R := m / 3 * (2 * x1 ^ 2 + 2 * x1 * x2 + 2 * x2 ^ 2).

(** Sanity: at the same point, the impulse (6) is (2, 1), Newton's law with e = 1 gives
    (2, −1), as impactkit's [sequential map --gamma=-2,1]. *)
Lemma wl_impulse_sanity : wl_impulse 1 (1 - -2) (1 - 1) = (2, 1).
Proof. unfold wl_impulse; f_equal; field. Qed.

Lemma wl_newton_sanity : wl_newton 1 1 (-2) 1 = (2, -1).
Proof.
  unfold wl_newton, wl_lcp, wl_after, wl_g11, wl_g12, wl_g22; cbn [fst snd].
  destruct (Rle_dec 0 ((1 + 1) * -2)); [lra|].
  destruct (Rle_dec 0 ((1 + 1) * 1 - - (1 / 1) * ((1 + 1) * -2) / (2 / 1))); [|lra].
  cbn [fst snd]; f_equal; field.
Qed.
