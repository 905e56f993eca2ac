(** * The variational integrator of the time stepper: Seghete & Murphey, Sect. VI

    Written by hand from the paper's equations (not from impactkit's Rust), for the
    systems of the paper's claims on (28)–(29): a particle of mass m on a line under a
    constant force f, L(q, q̇) = m q̇²/2 + f q, over a step of length h = t_b − t_a. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

(** The display before (28): the discrete Lagrangian by the midpoint rule,
    L_d(q_a, t_a, q_b, t_b) = (t_b − t_a) L((q_a + q_b)/2, (q_b − q_a)/(t_b − t_a)). *)
Definition var_ld (m f h qa qb : R) : R :=
  h * (m / 2 * ((qb - qa) / h) * ((qb - qa) / h) + f * ((qa + qb) / 2)).

(** The discrete momentum maps before (29), differentiated by hand:
    F⁻(t_a, t_b) = ∂L_d/∂q_a = −m (q_b − q_a)/h + h f/2,
    F⁺(t_a, t_b) = ∂L_d/∂q_b = m (q_b − q_a)/h + h f/2. *)
Definition var_fminus (m f h qa qb : R) : R := - m * (qb - qa) / h + h * f / 2.
Definition var_fplus (m f h qa qb : R) : R := m * (qb - qa) / h + h * f / 2.

(** One step from the node (q_a, p_a): the momentum at the start of the interval is
    p_a = −F⁻(t_a, t_b) (the discrete Legendre transform), solved for q_b,
    q_b = q_a + (h/m)(p_a + h f/2); the momentum at its end is p_b = F⁺(t_a, t_b). Two
    such steps satisfy (28), F⁺(t_{k−1}, t_k) + F⁻(t_k, t_{k+1}) = 0 (below). *)
Definition var_next_q (m f h qa pa : R) : R := qa + h / m * (pa + h * f / 2).
Definition var_next_p (m f h qa pa : R) : R := var_fplus m f h qa (var_next_q m f h qa pa).

(** The energy p²/(2m) − f q. *)
Definition var_energy (m f q p : R) : R := p * p / (2 * m) - f * q.

(** The maps are the derivatives of L_d: L_d is quadratic, so moving q_a by d changes it
    by d F⁻ + d² m/(2h) exactly, and moving q_b by d by d F⁺ + d² m/(2h). *)
Lemma var_fminus_is_d1 : forall m f h qa qb d, h <> 0 ->
  var_ld m f h (qa + d) qb - var_ld m f h qa qb = d * var_fminus m f h qa qb + d * d * m / (2 * h).
Proof. intros. unfold var_ld, var_fminus. field. auto. Qed.

Lemma var_fplus_is_d2 : forall m f h qa qb d, h <> 0 ->
  var_ld m f h qa (qb + d) - var_ld m f h qa qb = d * var_fplus m f h qa qb + d * d * m / (2 * h).
Proof. intros. unfold var_ld, var_fplus. field. auto. Qed.

(** The step starts from p_a (p_a = −F⁻) and two steps satisfy (28). *)
Lemma var_step_starts_at_pa : forall m f h qa pa, m <> 0 -> h <> 0 ->
  - var_fminus m f h qa (var_next_q m f h qa pa) = pa.
Proof. intros. unfold var_fminus, var_next_q. field. auto. Qed.

Lemma var_steps_satisfy_28 : forall m f h q0 p0, m <> 0 -> h <> 0 ->
  let q1 := var_next_q m f h q0 p0 in
  let p1 := var_next_p m f h q0 p0 in
  var_fplus m f h q0 q1 + var_fminus m f h q1 (var_next_q m f h q1 p1) = 0.
Proof. intros. unfold q1, p1, var_next_p, var_fplus, var_fminus, var_next_q. field. auto. Qed.

(** Sanity, against impactkit's exact run (the probe variational.del at m = 1/2,
    f = −63/8, h = 2/7, q0 = 3, p0 = 1): F⁺(t0, t1) = −5/4 and F⁻(t1, t2) = 5/4. *)
Lemma var_sanity :
  let q1 := var_next_q (1/2) (-63/8) (2/7) 3 1 in
  let p1 := var_next_p (1/2) (-63/8) (2/7) 3 1 in
  var_fplus (1/2) (-63/8) (2/7) 3 q1 = -5/4 /\
  var_fminus (1/2) (-63/8) (2/7) q1 (var_next_q (1/2) (-63/8) (2/7) q1 p1) = 5/4.
Proof.
  intros. unfold q1, p1, var_next_p, var_fplus, var_fminus, var_next_q. split; field.
Qed.
