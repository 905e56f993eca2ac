(** * The rolling penny: Clark & Bloch, Sects. III–V

    Written by hand from the paper's equations (not from impactkit's Rust). The vertical
    rolling disk of Sect. V in the coordinates q = (x, y, θ, φ), with the heading given by
    c = cos φ and s = sin φ as two reals (the claims pass exact points of the circle, or
    any reals where an identity does not need c² + s² = 1). Velocities q̇ and covectors
    (dH, ω^k, momenta) are quadruples ((a1, a2), a3), a4. The end of the disk that touches
    the wall is σ = 1 (the front, (27)) or σ = −1 (the back, (34)). *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

(** A quadruple's components. *)
Definition cb_1 (a : R * R * R * R) : R := fst (fst (fst a)).
Definition cb_2 (a : R * R * R * R) : R := snd (fst (fst a)).
Definition cb_3 (a : R * R * R * R) : R := snd (fst a).
Definition cb_4 (a : R * R * R * R) : R := snd a.

(** A covector applied to a velocity, a(q̇) = Σ aᵢ q̇ᵢ. *)
Definition cb_apply (a v : R * R * R * R) : R :=
  cb_1 a * cb_1 v + cb_2 a * cb_2 v + cb_3 a * cb_3 v + cb_4 a * cb_4 v.

(** (22): L = ½ m (ẋ² + ẏ²) + ½ I θ̇² + ½ J φ̇², so g = M = diag(m, m, I, J); the energy
    of q̇, and the ♯ of a covector (M⁻¹a), and the metric on covectors ⟨a, b⟩ = a M⁻¹ bᵀ. *)
Definition cb_energy (m I J : R) (v : R * R * R * R) : R :=
  / 2 * (m * cb_1 v ^ 2 + m * cb_2 v ^ 2 + I * cb_3 v ^ 2 + J * cb_4 v ^ 2).
Definition cb_sharp (m I J : R) (a : R * R * R * R) : R * R * R * R :=
  (cb_1 a / m, cb_2 a / m, cb_3 a / I, cb_4 a / J).
Definition cb_co (m I J : R) (a b : R * R * R * R) : R := cb_apply a (cb_sharp m I J b).

(** The momentum jump M(x − q̇) of an outcome x. *)
Definition cb_dmom (m I J : R) (x v : R * R * R * R) : R * R * R * R :=
  (m * (cb_1 x - cb_1 v), m * (cb_2 x - cb_2 v), I * (cb_3 x - cb_3 v), J * (cb_4 x - cb_4 v)).

(** (23): the rolling velocity (R θ̇ cos φ, R θ̇ sin φ, θ̇, φ̇). *)
Definition cb_rolling (rd c s thd phd : R) : R * R * R * R := (rd * thd * c, rd * thd * s, thd, phd).

(** (24): ω¹ = dx − R cos φ dθ, ω² = dy − R sin φ dθ. *)
Definition cb_omega1 (rd c : R) : R * R * R * R := (1, 0, - (rd * c), 0).
Definition cb_omega2 (rd s : R) : R * R * R * R := (0, 1, - (rd * s), 0).

(** (27), (34): the wall is h(x + σR cos φ, y + σR sin φ) = 0; with (h_x, h_y) the
    gradient of h at that point, dH = h_x dx + h_y dy + σR (h_y cos φ − h_x sin φ) dφ. *)
Definition cb_tilt (c s hx hy : R) : R := hy * c - hx * s.
Definition cb_dH (sg rd c s hx hy : R) : R * R * R * R :=
  (hx, hy, 0, sg * rd * cb_tilt c s hx hy).

(** The rate of h along the end's motion by the chain rule: the end point (27)/(34) moves
    at (ẋ − σR sin φ φ̇, ẏ + σR cos φ φ̇). *)
Definition cb_rate_chain (sg rd c s hx hy : R) (v : R * R * R * R) : R :=
  hx * (cb_1 v - sg * rd * s * cb_4 v) + hy * (cb_2 v + sg * rd * c * cb_4 v).

(** (5): P(q, q̇) = q̇ − 2 dh(q̇) / g(∇h, ∇h) ∇h, with ∇h = (dh)♯ and g(∇h, ∇h) = ⟨dh, dh⟩. *)
Definition cb_P (m I J : R) (dh v : R * R * R * R) : R * R * R * R :=
  let k := 2 * cb_apply dh v / cb_co m I J dh dh in
  let n := cb_sharp m I J dh in
  (cb_1 v - k * cb_1 n, cb_2 v - k * cb_2 n, cb_3 v - k * cb_3 n, cb_4 v - k * cb_4 n).

(** (29) as printed (front end; for the back end (34), R → σR):
    C = −2 [h_x ẋ + h_y ẏ + R (h_y cos φ − h_x sin φ) φ̇] /
        ([h_x² + h_y²]/m + R² (h_y cos φ − h_x sin φ)²/J). *)
Definition cb_C29 (m J sg rd c s hx hy : R) (v : R * R * R * R) : R :=
  -2 * (hx * cb_1 v + hy * cb_2 v + sg * rd * cb_tilt c s hx hy * cb_4 v)
  / ((hx ^ 2 + hy ^ 2) / m + (sg * rd) ^ 2 * cb_tilt c s hx hy ^ 2 / J).

(** (28) as printed: ẋ⁺ = ẋ + C/m h_x, ẏ⁺ = ẏ + C/m h_y, θ̇⁺ = θ̇,
    φ̇⁺ = φ̇ + C/J R (cos φ h_y − sin φ h_x) (R → σR for (34)). *)
Definition cb_p28 (m J sg rd c s hx hy : R) (v : R * R * R * R) : R * R * R * R :=
  let C := cb_C29 m J sg rd c s hx hy v in
  (cb_1 v + C / m * hx, cb_2 v + C / m * hy, cb_3 v,
   cb_4 v + C / J * (sg * rd) * cb_tilt c s hx hy).

(** (19): a^{ij} = ω^i(W^j) with W^j = (ω^j)♯, i.e. ⟨ω^i, ω^j⟩; (a_ij) its inverse. *)
Definition cb_a11 (m I J rd c s : R) : R := cb_co m I J (cb_omega1 rd c) (cb_omega1 rd c).
Definition cb_a12 (m I J rd c s : R) : R := cb_co m I J (cb_omega1 rd c) (cb_omega2 rd s).
Definition cb_a21 (m I J rd c s : R) : R := cb_co m I J (cb_omega2 rd s) (cb_omega1 rd c).
Definition cb_a22 (m I J rd c s : R) : R := cb_co m I J (cb_omega2 rd s) (cb_omega2 rd s).
Definition cb_det (m I J rd c s : R) : R :=
  cb_a11 m I J rd c s * cb_a22 m I J rd c s - cb_a12 m I J rd c s * cb_a21 m I J rd c s.

(** (21): π_Δ(q̇) = q̇ − a_ij ω^i(q̇) W^j; with λ = (a_ij) (ω¹(q̇), ω²(q̇)) by Cramer's rule,
    π_Δ(q̇) = q̇ − λ₁ W¹ − λ₂ W². *)
Definition cb_project (m I J rd c s : R) (v : R * R * R * R) : R * R * R * R :=
  let w1 := cb_apply (cb_omega1 rd c) v in
  let w2 := cb_apply (cb_omega2 rd s) v in
  let d := cb_det m I J rd c s in
  let l1 := (cb_a22 m I J rd c s * w1 - cb_a12 m I J rd c s * w2) / d in
  let l2 := (cb_a11 m I J rd c s * w2 - cb_a21 m I J rd c s * w1) / d in
  let W1 := cb_sharp m I J (cb_omega1 rd c) in
  let W2 := cb_sharp m I J (cb_omega2 rd s) in
  (cb_1 v - l1 * cb_1 W1 - l2 * cb_1 W2, cb_2 v - l1 * cb_2 W1 - l2 * cb_2 W2,
   cb_3 v - l1 * cb_3 W1 - l2 * cb_3 W2, cb_4 v - l1 * cb_4 W1 - l2 * cb_4 W2).

(** (30) as printed: W¹ = (1/m) ∂x − (R/I) cos φ ∂θ, W² = (1/m) ∂y − (R/I) sin φ ∂θ. *)
Definition cb_W30_1 (m rd I c : R) : R * R * R * R := (1 / m, 0, - (rd / I * c), 0).
Definition cb_W30_2 (m rd I s : R) : R * R * R * R := (0, 1 / m, - (rd / I * s), 0).

(** (31) as printed: (a_ij) = [[m − K cos²φ, −K sin φ cos φ], [−K sin φ cos φ, m − K sin²φ]],
    K = m²R² / (I + mR²). *)
Definition cb_K31 (m rd I : R) : R := m ^ 2 * rd ^ 2 / (I + m * rd ^ 2).
Definition cb_a31_11 (m rd I c : R) : R := m - cb_K31 m rd I * c ^ 2.
Definition cb_a31_12 (m rd I c s : R) : R := - (cb_K31 m rd I * s * c).
Definition cb_a31_22 (m rd I s : R) : R := m - cb_K31 m rd I * s ^ 2.

(** (32)–(33) as printed: (I + mR²) π_Δ = [[A, B], [C, D]] in (ẋ, ẏ, θ̇, φ̇), row by row:
    A = mR² [[cos²φ, sin φ cos φ], [sin φ cos φ, sin²φ]], B = IR [[cos φ, 0], [sin φ, 0]],
    C = mR [[cos φ, sin φ], [0, 0]], D = [[I, 0], [0, I + mR²]]. *)
Definition cb_P32_row1 (m rd I c s : R) : R * R * R * R :=
  (m * rd ^ 2 * c ^ 2, m * rd ^ 2 * (s * c), I * rd * c, 0).
Definition cb_P32_row2 (m rd I c s : R) : R * R * R * R :=
  (m * rd ^ 2 * (s * c), m * rd ^ 2 * s ^ 2, I * rd * s, 0).
Definition cb_P32_row3 (m rd I c s : R) : R * R * R * R := (m * rd * c, m * rd * s, I, 0).
Definition cb_P32_row4 (m rd I : R) : R * R * R * R := (0, 0, 0, I + m * rd ^ 2).

(** (18): the plastic nonholonomic impact map π_Δ ∘ P. *)
Definition cb_plastic (m I J rd c s : R) (dh v : R * R * R * R) : R * R * R * R :=
  cb_project m I J rd c s (cb_P m I J dh v).

(** (11)–(13) for the penny: s = (x, y), r = (θ, φ); (24) is already of the form (11) with
    A¹_θ = −R cos φ, A²_θ = −R sin φ, A^a_φ = 0. Along a motion satisfying (13) (the rolling
    velocity (23)), ẍ = R (θ̈ cos φ − θ̇ φ̇ sin φ), ÿ = R (θ̈ sin φ + θ̇ φ̇ cos φ). With L of
    (22), d/dt ∂L/∂q̇ − ∂L/∂q = M q̈, and (12) reads, left minus right: *)
Definition cb_xdd (rd c s thd phd thdd : R) : R := rd * (thdd * c - thd * phd * s).
Definition cb_ydd (rd c s thd phd thdd : R) : R := rd * (thdd * s + thd * phd * c).
Definition cb_res_theta (m rd I c s thd phd thdd : R) : R :=
  I * thdd - ((- (rd * c)) * (m * cb_xdd rd c s thd phd thdd)
              + (- (rd * s)) * (m * cb_ydd rd c s thd phd thdd)).
Definition cb_res_phi (J phdd : R) : R := J * phdd - (0 + 0).

(** With c² + s² = 1, (12) is the paper's (25): (I + mR²) θ̈ on the θ row, J φ̈ on the φ
    row. *)
Lemma cb_eq25 : forall m rd I J c s thd phd thdd phdd,
  c ^ 2 + s ^ 2 = 1 ->
  cb_res_theta m rd I c s thd phd thdd = (I + m * rd ^ 2) * thdd /\ cb_res_phi J phdd = J * phdd.
Proof.
  intros m rd I J c s thd phd thdd phdd H.
  unfold cb_res_theta, cb_res_phi, cb_xdd, cb_ydd.
  split; [|ring].
  replace (I * thdd - (- (rd * c) * (m * (rd * (thdd * c - thd * phd * s)))
                       + - (rd * s) * (m * (rd * (thdd * s + thd * phd * c)))))
    with (I * thdd + m * rd ^ 2 * thdd * (c ^ 2 + s ^ 2)) by ring.
  rewrite H; ring.
Qed.

(** Sanity: the plastic impact of Sect. IV-B's example (m = 1/400, R = 1/100,
    I = 1/8000000, J = 1/16000000, heading φ = 0, wall normal h_x = 1, θ̇ = 10): P (5)
    reverses ẋ and keeps θ̇, as impactkit's penny.maps gives (P_1 = −1/10, P_3 = 10). *)
Lemma cb_P_sanity :
  cb_P (1/400) (1/8000000) (1/16000000) (cb_dH 1 (1/100) 1 0 1 0) (cb_rolling (1/100) 1 0 10 0)
  = (-1/10, 0, 10, 0).
Proof.
  unfold cb_P, cb_dH, cb_tilt, cb_rolling, cb_co, cb_apply, cb_sharp, cb_1, cb_2, cb_3, cb_4;
    cbn [fst snd].
  f_equal; [f_equal; [f_equal|] |]; field.
Qed.

(** Sanity: the plastic map (18) of the same impact for a homogeneous thin disk scaled to
    m = R = 1 (I = mR²/2, J = mR²/4), θ̇ = 1: θ̇⁺ = −1/3, the ratio of impactkit's
    pl_3 = −10/3 at θ̇ = 10 (cb-remark4.6-differ). (The elastic map of Proposition 4.1 is
    not written here yet: `field` on its nested quotients took minutes.) *)
Lemma cb_plastic_sanity :
  cb_plastic 1 (1/2) (1/4) 1 1 0 (cb_dH 1 1 1 0 1 0) (cb_rolling 1 1 0 1 0) = (-1/3, 0, -1/3, 0).
Proof.
  unfold cb_plastic, cb_project, cb_det, cb_a11, cb_a12, cb_a21, cb_a22, cb_P, cb_dH, cb_tilt,
    cb_rolling, cb_omega1, cb_omega2, cb_co, cb_apply, cb_sharp, cb_1, cb_2, cb_3, cb_4;
    cbn [fst snd].
  f_equal; [f_equal; [f_equal|] |]; field.
Qed.
