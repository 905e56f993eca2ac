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
