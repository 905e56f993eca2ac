(** * The tactics of impactkit's generated proofs

    A small Ltac library: the law's branches chosen by the hypotheses, ground arithmetic
    at a witness, and the closing of obligations. Every proof built with these is checked
    by Coq's kernel; a tactic that fails makes the file fail to compile. *)
From Coq Require Import Reals Lra Lia QArith Qreals Qabs.
Open Scope R_scope.

(** Case analysis on every branch [Rle_dec a b] of the goal, innermost first (a branch
    taken inside the arguments of another decides them), each case simplified at once. *)
Ltac ik_branches :=
  repeat (match goal with
          | |- context [Rle_dec ?a ?b] =>
              lazymatch a with context [Rle_dec] => fail | _ => idtac end;
              lazymatch b with context [Rle_dec] => fail | _ => idtac end;
              destruct (Rle_dec a b)
          end; cbn [fst snd] in *).

(** The same in a hypothesis [H]. *)
Ltac ik_branches_in H :=
  repeat (match type of H with
          | context [Rle_dec ?a ?b] =>
              lazymatch a with context [Rle_dec] => fail | _ => idtac end;
              lazymatch b with context [Rle_dec] => fail | _ => idtac end;
              destruct (Rle_dec a b)
          end; cbn [fst snd] in H).

(** |a| replaced by a or −a, by the sign of a (a case each), in the goal and the
    hypotheses. Each step removes an |a|, so it ends (the first version destructed the
    sign again and again while the |a| stayed, and never ended). *)
Ltac ik_abs :=
  repeat match goal with
         | |- context [Rabs ?a] =>
             let s := fresh in
             destruct (Rcase_abs a) as [s | s];
             [rewrite (Rabs_left a s) | rewrite (Rabs_right a s)]
         | H : context [Rabs ?a] |- _ =>
             let s := fresh in
             destruct (Rcase_abs a) as [s | s];
             [rewrite (Rabs_left a s) in H | rewrite (Rabs_right a s) in H]
         end.

(** Nonlinear arithmetic with a time limit (a search that does not end is a failure). *)
Ltac ik_nra := timeout 2 nra.

(** A goal of real arithmetic: linear, then nonlinear (products of hypotheses). *)
Ltac ik_arith := first [lra | ik_nra | (ik_abs; first [lra | ik_nra])].

(** Hypotheses [a / b <> 0], [a * b <> 0], [- a <> 0], [a ^ n <> 0] split into their
    factors' (the forms [field] asks about). *)
Ltac ik_split_nonzero :=
  repeat match goal with
  | H : ?a / ?b <> 0 |- _ =>
      let A := fresh in let B := fresh in
      assert (A : a <> 0) by (let E := fresh in intro E; apply H; rewrite E; unfold Rdiv; ring);
      assert (B : b <> 0) by (let E := fresh in intro E; apply H; rewrite E; unfold Rdiv;
                              rewrite Rinv_0; ring);
      clear H
  | H : ?a * ?b <> 0 |- _ =>
      let A := fresh in let B := fresh in
      assert (A : a <> 0) by (let E := fresh in intro E; apply H; rewrite E; ring);
      assert (B : b <> 0) by (let E := fresh in intro E; apply H; rewrite E; ring);
      clear H
  | H : - ?a <> 0 |- _ =>
      let A := fresh in
      assert (A : a <> 0) by (let E := fresh in intro E; apply H; rewrite E; ring); clear H
  | H : ?a ^ ?n <> 0 |- _ =>
      let A := fresh in
      assert (A : a <> 0) by (let E := fresh in intro E; apply H; rewrite E; apply pow_i; lia);
      clear H
  end.

(** Every inverse [/ d] of the goal and the hypotheses, with [d] of a known sign, named
    [i] with the facts [d * i = 1] and the sign of [i]: what [nra] needs to clear the
    denominators of the law's formulas. *)
Ltac ik_inverses :=
  unfold Rdiv in *;
  repeat match goal with
         | |- context [/ ?d] => ik_name_inverse d
         | H : context [/ ?d] |- _ => ik_name_inverse d
         end
with ik_name_inverse d :=
  let i := fresh "i" in
  let Hd := fresh "Hd" in
  let Hs := fresh "Hs" in
  first [ assert (Hd : d > 0) by first [lra | ik_nra];
          assert (Hs : / d > 0) by (apply Rinv_0_lt_compat; exact Hd)
        | assert (Hd : d < 0) by first [lra | ik_nra];
          assert (Hs : / d < 0) by (apply Rinv_lt_0_compat; exact Hd) ];
  let Hr := fresh "Hr" in
  assert (Hr : d * / d = 1) by (apply Rinv_r; lra);
  set (i := / d) in *; clearbody i.

(** Positivity of a polynomial with sign-definite monomials in positive quantities:
    [0 < e] and [0 <= e] by the shape of [e] (products, powers, sums, inverses), each
    factor positive by a hypothesis or [lra]. *)
Ltac ik_pos :=
  lazymatch goal with
  | |- 0 < ?a * ?b => apply Rmult_lt_0_compat; ik_pos
  | |- 0 < ?a ^ _ => apply pow_lt; ik_pos
  | |- 0 < ?a + ?b =>
      first [ apply Rplus_lt_le_0_compat; [ik_pos | ik_nonneg]
            | apply Rplus_le_lt_0_compat; [ik_nonneg | ik_pos] ]
  | |- 0 < / ?a => apply Rinv_0_lt_compat; ik_pos
  | |- _ => first [assumption | lra | ik_nra]
  end
with ik_nonneg :=
  lazymatch goal with
  | |- 0 <= ?a * ?b => apply Rmult_le_pos; ik_nonneg
  | |- 0 <= ?a ^ 2 => apply pow2_ge_0
  | |- 0 <= ?a + ?b => apply Rplus_le_le_0_compat; ik_nonneg
  | |- 0 <= ?a ^ _ => apply pow_le; ik_nonneg
  | |- 0 <= / ?a => left; apply Rinv_0_lt_compat; ik_pos
  | |- _ => first [lra | (left; ik_pos)]
  end.

(** A hypothesis contradicted by the sign of its two sides' difference, as a polynomial
    with sign-definite monomials. *)
Ltac ik_sign_contra :=
  match goal with
  | H : ?a <= ?b |- _ => assert (0 < a - b) by (ring_simplify; ik_pos); lra
  | H : ?a < ?b |- _ => assert (0 <= a - b) by (ring_simplify; ik_nonneg); lra
  | H : ~ ?a <= ?b |- _ => assert (0 <= b - a) by (ring_simplify; ik_nonneg); lra
  | H : ?a > ?b |- _ => assert (0 <= b - a) by (ring_simplify; ik_nonneg); lra
  | H : ?a >= ?b |- _ => assert (0 < b - a) by (ring_simplify; ik_pos); lra
  | |- ?a < ?b => assert (0 < b - a) by (ring_simplify; ik_pos); lra
  | |- ?a <= ?b => assert (0 <= b - a) by (ring_simplify; ik_nonneg); lra
  | |- ?a > ?b => assert (0 < a - b) by (ring_simplify; ik_pos); lra
  | |- ?a >= ?b => assert (0 <= a - b) by (ring_simplify; ik_nonneg); lra
  end.

(** A ground real term (numerals, + − × ÷, powers, |·|) as a rational, at tactic time. *)
Ltac ik_q e :=
  lazymatch e with
  | ?a + ?b => let x := ik_q a in let y := ik_q b in constr:(Qplus x y)
  | ?a - ?b => let x := ik_q a in let y := ik_q b in constr:(Qminus x y)
  | ?a * ?b => let x := ik_q a in let y := ik_q b in constr:(Qmult x y)
  | ?a / ?b => let x := ik_q a in let y := ik_q b in constr:(Qdiv x y)
  | - ?a => let x := ik_q a in constr:(Qopp x)
  | / ?a => let x := ik_q a in constr:(Qinv x)
  | ?a ^ ?n => let x := ik_q a in constr:(Qpower x (Z.of_nat n))
  | Rabs ?a => let x := ik_q a in constr:(Qabs x)
  | IZR ?z => constr:(inject_Z z)
  | R0 => constr:(0%Q)
  | R1 => constr:(1%Q)
  end.

(** * Ground radicals

    A ground [sqrt a] (a rational [a] ≥ 0) is bounded by rationals at tactic time: n/d ≤
    √a ≤ (n+1)/d with d = den(a)·10¹² and n = ⌊√(num(a)·den(a)·10²⁴)⌋, each bound proved
    from its square by [lra]. A product √a·√b of ground radicals is first merged into
    √(ab), so that [lra] sees one atom per radical. *)
Lemma ik_sqrt_lo : forall a x, 0 <= a -> a * a <= x -> a <= sqrt x.
Proof. intros a x Ha Hx. rewrite <- (sqrt_square a Ha). apply sqrt_le_1_alt. lra. Qed.

Lemma ik_sqrt_hi : forall b x, 0 <= b -> x <= b * b -> sqrt x <= b.
Proof. intros b x Hb Hx. rewrite <- (sqrt_square b Hb). apply sqrt_le_1_alt. lra. Qed.

Ltac ik_sqrt_products :=
  repeat match goal with
  | H : context [sqrt ?a * sqrt ?b] |- _ =>
      let _ := ik_q a in let _ := ik_q b in
      rewrite <- (sqrt_mult_alt a b) in H by lra
  | |- context [sqrt ?a * sqrt ?b] =>
      let _ := ik_q a in let _ := ik_q b in
      rewrite <- (sqrt_mult_alt a b) by lra
  end.

Ltac ik_sqrt_bound a :=
  let q := ik_q a in
  let q := eval vm_compute in (Qred q) in
  let s := eval vm_compute in (Qle_bool 0 q) in
  lazymatch s with true => idtac end;
  let n := eval vm_compute in (Z.sqrt (Qnum q * Zpos (Qden q) * 10 ^ 24)) in
  let d := eval vm_compute in (Zpos (Qden q) * 10 ^ 12)%Z in
  let n1 := eval vm_compute in (n + 1)%Z in
  assert (IZR n / IZR d <= sqrt a) by (apply ik_sqrt_lo; lra);
  assert (sqrt a <= IZR n1 / IZR d) by (apply ik_sqrt_hi; lra).

Lemma ik_sqrt_ratio : forall a b r, 0 <= r -> 0 <= b -> a = r * r * b -> sqrt a = r * sqrt b.
Proof.
  intros a b r Hr Hb E. subst a.
  rewrite sqrt_mult_alt by nra. rewrite sqrt_square by lra. reflexivity.
Qed.

(** √a = r √b for two ground radicals whose radicands differ by the square of a rational
    r (√(64 c) = 8 √c), an equation [lra] can use. *)
Ltac ik_sqrt_ratio a b :=
  let x := ik_q a in let y := ik_q b in
  let r := eval vm_compute in (Qred (Qdiv x y)) in
  lazymatch r with
  | Qmake ?n ?d =>
      let sn := eval vm_compute in (Z.sqrt n) in
      let sd := eval vm_compute in (Z.sqrt (Zpos d)) in
      let ok := eval vm_compute in (andb (Z.eqb (sn * sn) n) (Z.eqb (sd * sd) (Zpos d))) in
      lazymatch ok with
      | true => assert (sqrt a = IZR sn / IZR sd * sqrt b) by (apply ik_sqrt_ratio; lra)
      end
  end.

Ltac ik_sqrt_pair2 a b :=
  lazymatch a with b => fail | _ => idtac end;
  lazymatch goal with
  | _ : sqrt a = _ * sqrt b |- _ => fail
  | _ : sqrt b = _ * sqrt a |- _ => fail
  | _ => ik_sqrt_ratio a b
  end.

Ltac ik_sqrt_pair a :=
  match goal with
  | |- context [sqrt ?b] => ik_sqrt_pair2 a b
  | _ : context [sqrt ?b] |- _ => ik_sqrt_pair2 a b
  end.

Ltac ik_sqrt_new a := lazymatch goal with _ : _ <= sqrt a |- _ => fail | _ => ik_sqrt_bound a end.

(** Every ground radical of the goal and the hypotheses bounded (once each), and the
    rational ratios between them stated. *)
Ltac ik_sqrts :=
  ik_sqrt_products;
  repeat match goal with
  | |- context [sqrt ?a] => ik_sqrt_pair a
  | _ : context [sqrt ?a] |- _ => ik_sqrt_pair a
  end;
  repeat match goal with
  | |- context [sqrt ?a] => ik_sqrt_new a
  | _ : context [sqrt ?a] |- _ => ik_sqrt_new a
  end.

(** Arithmetic, then again with the inverses named, then by signs. *)
Ltac ik_arith_full :=
  first [ik_arith | (ik_inverses; first [ik_arith | ik_sign_contra]) | (ik_sqrts; lra)].

(** [d <> 0] from a hypothesis [a <> 0] whose fractions, cleared, give [d] up to a
    constant factor (a law's divisor stated as a premise, e.g. ‖u‖²_g ≠ 0, is asked by
    [field] with its denominators multiplied out); the denominators of [a] nonzero by
    [lra]. *)
Ltac ik_nonzero_cleared :=
  let E := fresh in
  intro E;
  match goal with
  | H : ?a <> 0 |- _ =>
      apply H; field_simplify_eq; [lra | repeat split; (apply Rgt_not_eq; lra) || (apply Rlt_not_eq; lra)]
  end.

(** [e <> 0] for the side conditions of [field]: from a hypothesis, factor by factor, or
    as a positive or negative quantity. *)
Ltac ik_nonzero :=
  repeat split;
  first [ assumption
        | (apply Rmult_integral_contrapositive_currified; ik_nonzero)
        | (apply pow_nonzero; ik_nonzero)
        | (apply Ropp_neq_0_compat; ik_nonzero)
        | (apply Rgt_not_eq; first [lra | ik_nra])
        | (apply Rlt_not_eq; first [lra | ik_nra])
        | (apply Rgt_not_eq; unfold Rgt; ik_pos)
        | (apply Rgt_not_eq; unfold Rgt; ring_simplify; ik_pos)
        | (let E := fresh in intro E; first [lra | ik_nra])
        | ik_nonzero_cleared ].

(** An equation of rational functions, by [field] with its side conditions. *)
Ltac ik_field := ik_split_nonzero; first [ring | (field; ik_nonzero)].

(** One obligation: an equation or a comparison. *)
Ltac ik_close :=
  match goal with
  | |- _ = _ => ik_field
  | |- _ <> _ => let E := fresh in intro E; ik_arith_full
  | |- _ -> _ => intro; ik_close
  | |- _ => ik_arith_full
  end.

(** A conjunction of obligations. *)
Ltac ik_conj := repeat split; ik_close.

(** A proved case: every branch of the law either contradicts the hypotheses or proves
    the conclusions. *)
Ltac ik_solve :=
  ik_branches; cbn [fst snd] in *;
  try solve [exfalso; ik_arith_full];
  ik_conj.

(** The premises of [H], at a witness, proved by ground arithmetic (linear: every
    variable has its value). *)
Ltac ik_premises H :=
  repeat match type of H with
         | ?P -> _ =>
             let h := fresh in
             assert (h : P) by first [lra | (ik_abs; lra)
                                      | (let E := fresh in intro E; lra)];
             specialize (H h); clear h
         end.

(** |a| replaced by a or −a in [A] only, by the sign of a. *)
Ltac ik_abs_in A :=
  repeat match type of A with
         | context [Rabs ?a] =>
             let s := fresh in
             destruct (Rcase_abs a) as [s | s];
             [rewrite (Rabs_left a s) in A | rewrite (Rabs_right a s) in A]
         end.

(** The ground comparison [A] is false. *)
Ltac ik_false A := ik_abs_in A; lra.

(** [H], the conclusions at a witness, is false: the law's branches computed there, then
    the conjuncts, one of which ground arithmetic refutes. *)
Ltac ik_refute H :=
  cbn [fst snd] in H; ik_branches_in H; cbn [fst snd] in H;
  repeat match type of H with
         | _ /\ _ => let A := fresh in destruct H as [A H]
         end;
  repeat match goal with
         | A : ?d <> 0 -> _ |- _ =>
             specialize (A ltac:(let E := fresh in intro E; lra))
         end;
  first [ lra
        | match goal with A : _ |- _ => ik_false A end
        | match goal with E : ?a <> ?b |- _ => apply E; first [lra | (ik_abs; lra)] end
        | (ik_sqrts; lra)
        | (ik_abs; ik_sqrts; lra) ].

(** * Ground arithmetic at a witness, let by let

    A statement specialized at a witness is a chain of [let]s (the probes' outputs and the
    claim's quantities). Expanding the chain at once copies every value into every use: a
    reflection of a reflection of the cradle's velocities grows to a term whose [lra] took
    Coq 3 minutes. [ik_walk] instead computes each value exactly (the laws unfolded, the
    branches decided, the arithmetic done in Q at tactic time), proves "value = constant"
    by [lra] on that small term alone, and goes on with the constant. *)

(** The real numeral of a rational, in lowest terms. *)
Ltac ik_r q :=
  let q' := eval vm_compute in (Qred q) in
  lazymatch q' with
  | Qmake ?n 1 => constr:(IZR n)
  | Qmake ?n ?d => constr:(IZR n / IZR (Zpos d))
  end.

(** Fails on a term that still has a branch. *)
Ltac ik_no_branch a := lazymatch a with context [Rle_dec] => fail | _ => constr:(I) end.

(** The innermost branch [if Rle_dec a b] of a ground term taken, by exact rationals. *)
Ltac ik_decide1 e :=
  match e with
  | context C [if Rle_dec ?a ?b then ?p else ?q] =>
      let _ := ik_no_branch a in let _ := ik_no_branch b in
      let x := ik_q a in let y := ik_q b in
      let r := eval vm_compute in (Qle_bool x y) in
      let e' := lazymatch r with
                | true => context C [p]
                | false => context C [q]
                end in
      let e'' := eval cbv beta iota in e' in e''
  end.

(** Every branch of a ground term taken. *)
Ltac ik_decide e :=
  lazymatch e with
  | context [Rle_dec] => let e' := ik_decide1 e in ik_decide e'
  | _ => e
  end.

(** The laws unfolded in a term (every definition but real arithmetic's). *)
Ltac ik_laws e :=
  let r := eval cbv beta iota zeta delta -[Rplus Rminus Rmult Rdiv Ropp Rinv pow Rabs IZR
    Rle Rlt Rge Rgt Rle_dec Rlt_dec Rcase_abs sqrt Rsqr Rmax Rmin sin cos PI not] in e in r.

(** The exact value of a ground term of the laws, as a real numeral. *)
Ltac ik_value e :=
  let u := ik_laws e in let d := ik_decide u in let q := ik_q d in ik_r q.

(** A ground goal (an equation, a comparison, [_ <> 0]): the laws unfolded, every branch
    taken, [lra] (after |·| is replaced by its sign where it occurs). *)
Ltac ik_ground_goal :=
  lazymatch goal with |- ?g => let g' := ik_laws g in change g' end;
  ik_branches;
  first [lra | (let E := fresh in intro E; lra)
        (* |·| of ground terms: each by its sign, the other case refuted by lra *)
        | (ik_abs; lra) | (let E := fresh in intro E; ik_abs; lra)
        (* an equation of nested quotients (a law's projections), by [field] *)
        | (field; repeat split; lra)].

(** The statement [H] at a witness walked [let] by [let]: each value computed exactly and
    proved equal to its numeral, each premise proved, so that no term grows along the
    chain. A value it cannot compute (not a real, or a function it does not know) is
    substituted as it is. *)
Ltac ik_walk H :=
  repeat lazymatch type of H with
  | let x := ?v in @?B x =>
      first [ let c := ik_value v in
              let E := fresh "E" in
              assert (E : v = c) by (clear H; ik_ground_goal);
              let H' := fresh in
              assert (H' : B c) by exact (@eq_ind R v B H c E);
              clear H E; rename H' into H; cbv beta in H
            | change (B v) in H; cbv beta in H ]
  | ?P -> _ =>
      let h := fresh in
      assert (h : P) by (clear H; ik_ground_goal); specialize (H h); clear h
  end.

(** * Proofs from the certificate's cells

    A proved case is covered by the certificate's cells: the signs of the parameters'
    pieces and of the cone's forms ([ik_cover]), then, in each cell, new variables that
    are positive there (the chart's [t_*] and [c_*]), the claim's variables replaced by
    the chart's rational functions of them, and every branch of the law and every
    conclusion decided by the sign of a rational function of positive variables:
    [field_simplify] to N/D, then N and D as sums of products of positive quantities
    ([ik_cpos]: no search, a shape either fits or fails at once). *)

(** The three signs of [e]. *)
Ltac ik_cover e := destruct (Rtotal_order e 0) as [?|[?|?]].

(** [0 < e] and [0 <= e] by the shape of [e]: products, quotients, powers, sums of
    positive quantities (a hypothesis or a numeral). *)
Ltac ik_cpos :=
  lazymatch goal with
  | |- 0 < ?a * ?b => apply Rmult_lt_0_compat; ik_cpos
  | |- 0 < ?a / ?b => apply Rdiv_lt_0_compat; ik_cpos
  | |- 0 < ?a ^ _ => apply pow_lt; ik_cpos
  | |- 0 < ?a + ?b =>
      first [ apply Rplus_lt_le_0_compat; [ik_cpos | ik_cnonneg]
            | apply Rplus_le_lt_0_compat; [ik_cnonneg | ik_cpos] ]
  | |- 0 < / ?a => apply Rinv_0_lt_compat; ik_cpos
  | |- _ => first [assumption | lra]
  end
with ik_cnonneg :=
  lazymatch goal with
  | |- 0 <= ?a * ?b => apply Rmult_le_pos; ik_cnonneg
  | |- 0 <= ?a / ?b => unfold Rdiv; apply Rmult_le_pos; [ik_cnonneg | left; apply Rinv_0_lt_compat; ik_cpos]
  | |- 0 <= ?a ^ 2 => apply pow2_ge_0
  | |- 0 <= ?a + ?b => apply Rplus_le_le_0_compat; ik_cnonneg
  | |- 0 <= ?a ^ _ => apply pow_le; ik_cnonneg
  | |- 0 <= / ?a => left; apply Rinv_0_lt_compat; ik_cpos
  | |- _ => first [lra | (left; ik_cpos)]
  end.

(** [e <> 0] for [field]'s side conditions in a cell. *)
Ltac ik_cnonzero :=
  repeat split;
  first [ assumption
        | (apply Rgt_not_eq; unfold Rgt; ik_cpos)
        | (apply Rlt_not_eq; apply Ropp_lt_cancel; rewrite Ropp_0; ring_simplify; ik_cpos)
        | (apply Rgt_not_eq; unfold Rgt; ring_simplify; ik_cpos)
        | ik_nonzero ].

(** [0 < e] and [0 <= e] for a rational function [e] of positive variables. *)
Ltac ik_rpos := field_simplify; [ik_cpos | ik_cnonzero ..].
Ltac ik_rnonneg := field_simplify; [ik_cnonneg | ik_cnonzero ..].

(** A hypothesis contradicted by the sign of its two sides' difference. *)
Ltac ik_rcontra :=
  match goal with
  | H : ?a <= ?b |- _ => assert (0 < a - b) by ik_rpos; lra
  | H : ~ ?a <= ?b |- _ => assert (0 <= b - a) by ik_rnonneg; lra
  | H : ?a < ?b |- _ => assert (0 <= a - b) by ik_rnonneg; lra
  | H : ?a > ?b |- _ => assert (0 <= b - a) by ik_rnonneg; lra
  | H : ?a >= ?b |- _ => assert (0 < b - a) by ik_rpos; lra
  | H : ?a <> ?b |- _ => apply H; field; ik_cnonzero
  end.

(** One conclusion in a cell. *)
Ltac ik_cclose :=
  match goal with
  | |- _ = _ => ik_split_nonzero; first [ring | (field; ik_cnonzero)]
  | |- _ <> _ => let E := fresh in intro E; first [lra | ik_rcontra | ik_arith_full]
  | |- _ -> _ => intro; ik_cclose
  | |- ?a < ?b => first [(assert (0 < b - a) by ik_rpos; lra) | ik_arith_full]
  | |- ?a <= ?b => first [(assert (0 <= b - a) by ik_rnonneg; lra) | ik_arith_full]
  | |- ?a > ?b => first [(assert (0 < a - b) by ik_rpos; lra) | ik_arith_full]
  | |- ?a >= ?b => first [(assert (0 <= a - b) by ik_rnonneg; lra) | ik_arith_full]
  | |- _ => ik_arith_full
  end.

(** A cell's variables substituted: every branch of the law, then every |·|, either
    contradicted by a sign or followed, then the conclusions. *)
Ltac ik_cell_solve :=
  ik_branches; cbn [fst snd] in *;
  try solve [exfalso; ik_rcontra];
  ik_abs; try solve [exfalso; ik_rcontra];
  repeat split; ik_cclose.

(** The equation of a chart, [v = chart] with the chart's variables written out. *)
Ltac ik_chart_eq :=
  first [ ring
        | (field; ik_nonzero)
        | (field_simplify_eq; [lra | ik_nonzero ..])
        | (field_simplify_eq; [nra | ik_nonzero ..]) ].

(** * Statements walked [let] by [let], symbolically
    A run of a law (the cradle's velocities after 1, 2, … impacts) is a chain of [let]s,
    each applying the law to the previous ones. Expanded at once, the chain copies each
    value into every use and grows exponentially. Instead each [let] becomes a variable
    with its equation [ik_let x v]; the equations are walked in order: the laws of [v]
    unfolded, their branches taken (a branch the hypotheses exclude closed by [c]), the
    value brought to one fraction by [field_simplify] and substituted for [x]. *)
Definition ik_let {A : Type} (x v : A) : Prop := x = v.
(** The premises and the [let]s of the goal introduced, each [let] as a variable with
    its equation. *)
Ltac ik_intros :=
  repeat lazymatch goal with
  | |- let x := ?v in _ =>
      let E := fresh "ikL" in
      intro x; assert (E : ik_let x v) by reflexivity; clearbody x
  | |- _ -> _ => intro
  end.
(** Fails if [v] uses a variable whose equation is still to be walked. *)
Ltac ik_ready v :=
  match goal with
  | F : ik_let ?y _ |- _ => lazymatch v with context [y] => fail 2 | _ => fail end
  | _ => idtac
  end.
(** A side condition of [field_simplify] in a hypothesis, [d = 0 ⊢ False]. *)
Ltac ik_side nz :=
  match goal with
  | H : ?d = 0 |- False => let h := fresh in assert (h : d <> 0) by nz; exact (h H)
  end.
(** Each innermost branch [Rle_dec a b] of [E] taken where [le] proves [a <= b] or [nle]
    proves [~ a <= b], else split in two cases. *)
Ltac ik_take_in E le nle :=
  repeat (match type of E with
          | context [Rle_dec ?a ?b] =>
              lazymatch a with context [Rle_dec] => fail | _ => idtac end;
              lazymatch b with context [Rle_dec] => fail | _ => idtac end;
              first [ let h := fresh in
                      assert (h : a <= b) by le;
                      let B := fresh in
                      destruct (Rle_dec a b) as [_ | B]; [clear h | exfalso; exact (B h)]
                    | let h := fresh in
                      assert (h : ~ a <= b) by nle;
                      let B := fresh in
                      destruct (Rle_dec a b) as [B | _]; [exfalso; exact (h B) | clear h]
                    | destruct (Rle_dec a b) ]
          end; cbn [fst snd] in E).
(** The walk: each equation's laws unfolded, its branches taken by [le]/[nle], its value
    brought to one fraction (denominators nonzero by [nz]) and substituted. *)
Ltac ik_walk_by le nle nz :=
  repeat match reverse goal with
  | E : ik_let ?x ?v |- _ =>
      ik_ready v;
      lazymatch v with
      | context [sqrt] => clear E   (* a radical stays a variable, with its hypotheses *)
      | _ =>
      let u := ik_laws v in
      change (x = u) in E; cbn [fst snd] in E;
      ik_take_in E le nle;
      try (field_simplify in E; [| ik_side nz ..]);
      subst x
      end
  end.
(** In a cell: each branch by the sign of a rational function of positive variables. *)
Ltac ik_cle := lazymatch goal with |- ?a <= ?b => assert (0 <= b - a) by ik_rnonneg; lra end.
Ltac ik_cnle := lazymatch goal with |- ~ ?a <= ?b => assert (0 < a - b) by ik_rpos; lra end.
Ltac ik_cwalk := ik_walk_by ltac:(idtac; ik_cle) ltac:(idtac; ik_cnle) ltac:(idtac; ik_cnonzero).
(** Without cells: by arithmetic on the hypotheses. *)
Ltac ik_swalk :=
  ik_walk_by ltac:(idtac; ik_arith_full) ltac:(idtac; let E := fresh in intro E; ik_arith_full)
             ltac:(idtac; ik_nonzero).
