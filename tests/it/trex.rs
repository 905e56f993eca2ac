//! The TREX design study (Seghete–Murphey Sect. VII-B) in the declared model of
//! `docs/trex-model.md`.

use impactkit::arith::{MpInterval, Scalar};
use impactkit::system::trex::{certify_orthogonal, table_i, TailRule};
use num_rational::BigRational;

#[test]
fn explore() {
    for tail in [TailRule::Printed, TailRule::Homothetic] {
        for row in table_i() {
            let p = row.point::<f64>(&(), tail);
            let r = p.report().unwrap();
            eprintln!(
                "{tail:?} {}: tail {:.4} foot {:.4} left {:.3} L {:.4} ip {:.4e} cos {:.4e} xi2 {:.4e}",
                row.system, r.gap_tail, r.gap_foot, r.gap_left, r.tail_length, r.inner, r.cosine, r.xi_squared
            );
        }
    }
    let c = certify_orthogonal(TailRule::Printed, 256, &BigRational::new(1.into(), num_bigint::BigInt::from(10).pow(40))).unwrap();
    eprintln!("{:?}", c.newton.residuals);
    eprintln!("{:?}", c.newton.iterates.last());
    eprintln!("proved {} width {:e} ip {} xi2 {}", c.proved, c.width, c.report.inner, c.report.xi_squared);
    let _ = MpInterval::from_i64(1, &64).to_f64();
}
