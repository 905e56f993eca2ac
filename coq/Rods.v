(** * Colliding identical thin rods: Winandy & Leine, Sect. 4, the wave equation (31)
    and the transition properties of Table 1

    Written by hand from the paper (not from impactkit's Rust). Identical rods of length
    l, wave speed c, undeformed and touching at t = 0 with uniform velocities (32), (34).
    Time is counted in l/c. By d'Alembert's solution of (31), u = f(x − ct) + g(x + ct),
    the quantities Rw = u_t − c u_x (constant along x − ct) and Lw = u_t + c u_x (constant
    along x + ct) travel through a rod in one time unit, so at every whole time each rod
    is one region of uniform state (u_t, c u_x) = ((Rw + Lw)/2, (Lw − Rw)/2), as in the
    regions of (33) and (35). Over the next time unit, the wave entering a rod at an end
    is, by Table 1:
    - at a free end ("Free end": u_x = 0 there), the rod's own wave reflected: the
      entering Rw is the rod's Lw (left end), the entering Lw its Rw (right end);
    - at a closed contact between equal rods ("Impact between ends": the two ends share
      u_3,t = (u_2,t + u_1,t)/2 and c u_3,x = (u_2,t − u_1,t)/2), the neighbour's wave
      transmitted: the entering Rw is the left neighbour's Rw, the entering Lw the right
      neighbour's Lw;
    and the waves crossing inside a rod superpose ("Crossing waves"). A free right end of
    the left rod moves at its Rw, a free left end of the right rod at its Lw; the
    contact is closed over the next unit when the gap is 0 and these ends approach
    (compression, "the colliding ends of the rods have the same velocity as soon as
    they touch"). The generator of the claims unrolls these steps over a horizon of 2n
    time units for n rods as a chain of [let]s; the rods' outcome (their velocities after
    the impact) exists when no gap ever became negative (the lattice of whole times holds)
    and at the horizon no rod vibrates (c u_x = 0) and neighbours move apart or together
    (u_t of the left at most that of the right): the contacts then stay open for good. *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

(** The contact of a left rod (its Rw [rl]) and a right rod (its Lw [lr]) with gap [g]
    over the next time unit: 1 closed (the gap is 0 and the free ends would approach,
    [lr] < [rl]), 0 open. *)
Definition wl_rod_closed (g rl lr : R) : R :=
  if Rle_dec g 0 then (if Rle_dec rl lr then 0 else 1) else 0.

(** The Rw entering a rod at its left end: the left neighbour's [rprev] through a closed
    contact, else the rod's own [l] reflected by its free end. *)
Definition wl_rod_enter_r (closed rprev l : R) : R := if Rle_dec closed 0 then l else rprev.

(** The Lw entering a rod at its right end: the right neighbour's [lnext] through a closed
    contact, else the rod's own [r] reflected. *)
Definition wl_rod_enter_l (closed r lnext : R) : R := if Rle_dec closed 0 then r else lnext.

(** The gap after one time unit: 0 through a closed contact, else grown by the free ends'
    velocities, [lr] − [rl]. *)
Definition wl_rod_gap (closed g rl lr : R) : R := if Rle_dec closed 0 then g + (lr - rl) else 0.

(** 1 where a gap became negative (the ends met between two whole times: the lattice of
    whole times does not hold and the chain has no outcome), else 0. *)
Definition wl_rod_neg (g : R) : R := if Rle_dec 0 g then 0 else 1.

(** A rod's velocity u_t and c u_x from its two waves. *)
Definition wl_rod_v (r l : R) : R := (r + l) / 2.
Definition wl_rod_s (r l : R) : R := (l - r) / 2.

(** 1 where the rod vibrates (c u_x ≠ 0), else 0. *)
Definition wl_rod_vib (r l : R) : R :=
  if Rle_dec (wl_rod_s r l) 0 then (if Rle_dec 0 (wl_rod_s r l) then 0 else 1) else 1.

(** 1 where a left rod moves faster than its right neighbour (they would meet again),
    else 0. *)
Definition wl_rod_meet (vl vr : R) : R := if Rle_dec vl vr then 0 else 1.

(** Sanity: two rods, (32) with v = 1 (Sect. 4.1), Rw = Lw = u_t at t = 0. Over the first
    unit the contact is closed (gap 0, the left end's 1 against the right end's 0), the
    left rod gets Rw = its own Lw = 1 (free left end) and Lw = the right rod's 0: region ③ of (33),
    u_t = 1/2, c u_x = −1/2. *)
Lemma wl_rod_sanity :
  wl_rod_closed 0 1 0 = 1 /\ wl_rod_enter_r 0 0 1 = 1 /\ wl_rod_enter_l 1 1 0 = 0
  /\ wl_rod_v 1 0 = 1 / 2 /\ wl_rod_s 1 0 = - (1 / 2).
Proof.
  unfold wl_rod_closed, wl_rod_enter_r, wl_rod_enter_l, wl_rod_v, wl_rod_s.
  destruct (Rle_dec 0 0); [|lra]. destruct (Rle_dec 1 0); [lra|].
  destruct (Rle_dec 0 0); [|lra]. destruct (Rle_dec 1 0); [lra|].
  repeat split; lra.
Qed.

(** 1 where two quantities differ, else 0 (cells of one rod moving at different
    velocities: the rod vibrates). *)
Definition wl_rod_ne (a b : R) : R :=
  if Rle_dec a b then (if Rle_dec b a then 0 else 1) else 1.

(** The time a contact last opened: [time] if it was closed over the step before
    ([before] = 1) and is open over this one ([now] = 0), else the earlier time [last]. *)
Definition wl_rod_opening (before now time last : R) : R :=
  if Rle_dec before 0 then last else (if Rle_dec now 0 then time else last).
