//! Verdicts and mutants of the claims added for issue 13 (this paper's part): the expected
//! verdicts live here, never in the claim files.
