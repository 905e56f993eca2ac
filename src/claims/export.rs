//! What `verify --certificates DIR` and `verify --smtlib DIR` write: a certificate file
//! per decided claim ([`super::certificate`]) and its SMT-LIB queries ([`super::smtlib`]).

use super::certificate::certificate;
use super::smtlib::smtlib;
use std::path::Path;

/// Writes the certificates and SMT-LIB files of a verification run: (certificates,
/// SMT-LIB files, queries).
pub fn write(
    results: &[super::claim::ClaimResult],
    claims: &[super::claim::Claim],
    certificates: Option<&Path>,
    smt: Option<&Path>,
) -> Result<(usize, usize, usize), String> {
    for d in certificates.iter().chain(smt.iter()) {
        std::fs::create_dir_all(d)
            .map_err(|e| format!("cannot create directory {}: {e}", d.display()))?;
    }
    let (mut nc, mut ns, mut nq) = (0, 0, 0);
    for r in results {
        let source = claims
            .iter()
            .find(|c| c.id == r.id)
            .and_then(|c| std::fs::read_to_string(&c.file).ok())
            .unwrap_or_default();
        let Some(cert) = certificate(r, &source) else {
            continue;
        };
        if let Some(d) = certificates {
            let p = d.join(format!("{}.json", r.id));
            crate::output::write_atomic(&p, cert.to_string().as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
            nc += 1;
        }
        if let Some(d) = smt {
            if let Some((text, n)) = smtlib(&cert).map_err(|e| format!("{}: {e}", r.id))? {
                let p = d.join(format!("{}.smt2", r.id));
                crate::output::write_atomic(&p, text.as_bytes())
                    .map_err(|e| format!("cannot write {}: {e}", p.display()))?;
                ns += 1;
                nq += n;
            }
        }
    }
    Ok((nc, ns, nq))
}
