(** * TREX's tail length: Seghete & Murphey, Sect. VII-B

    Written by hand from the paper's display for L_tail (not from impactkit's Rust). The
    probe [trex.ltail] reports each length as a certified enclosure [name_lo, name_hi];
    in Coq both ends are the exact value (a point encloses itself), so a theorem states
    the claim's relation between the exact lengths. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

(** The display in Sect. VII-B:
    L_tail = (r₁³ + r₁² r₂ + √2 √(r₁⁴ r₂² + r₁³ r₂³)) / (r₁² − r₂²) − (r₁ + r₂). *)
Definition tr_ltail (r1 r2 : R) : R :=
  (r1 ^ 3 + r1 ^ 2 * r2 + sqrt 2 * sqrt (r1 ^ 4 * r2 ^ 2 + r1 ^ 3 * r2 ^ 3))
    / (r1 ^ 2 - r2 ^ 2) - (r1 + r2).

(** The length at which the two body circles' common tangents meet (their external
    homothetic centre), measured as L_tail is: (r₁ + r₂) r₂ / (r₁ − r₂). A tail tip
    beyond it lets the tangents from the tip enclose both bodies ("a tapering shape"). *)
Definition tr_homothetic (r1 r2 : R) : R := (r1 + r2) * r2 / (r1 - r2).

(** Sanity: the formula is homogeneous of degree 1 where r₁, r₂ > 0 and r₁ ≠ r₂, so a
    tail length "inversely proportional with the ratio of the two radii" would have to be
    the same at (2 r₁, 2 r₂) as at (r₁, r₂); it doubles instead. *)
Lemma tr_ltail_scale : forall r1 r2,
  0 < r2 < r1 -> tr_ltail (2 * r1) (2 * r2) = 2 * tr_ltail r1 r2.
Proof.
  intros r1 r2 [H2 H1]. unfold tr_ltail.
  assert (E : (2 * r1) ^ 4 * (2 * r2) ^ 2 + (2 * r1) ^ 3 * (2 * r2) ^ 3
              = 8 ^ 2 * (r1 ^ 4 * r2 ^ 2 + r1 ^ 3 * r2 ^ 3)) by ring.
  rewrite E, sqrt_mult_alt, sqrt_pow2 by (try apply pow_le; nra).
  assert (r1 ^ 2 - r2 ^ 2 <> 0) by nra.
  field. nra.
Qed.

(** Sanity: impactkit's exact value at Table I's Initial radii (r₁, r₂) = (7, 4), in
    Q(√154) (tests/it/trex.rs): L_tail = (539 + 28 √154)/33 − 11. *)
Lemma tr_ltail_initial : tr_ltail 7 4 = (539 + 28 * sqrt 154) / 33 - 11.
Proof.
  unfold tr_ltail.
  rewrite <- sqrt_mult_alt by lra.
  replace (2 * (7 ^ 4 * 4 ^ 2 + 7 ^ 3 * 4 ^ 3)) with (28 ^ 2 * 154) by ring.
  rewrite sqrt_mult_alt, sqrt_pow2 by lra.
  field.
Qed.
