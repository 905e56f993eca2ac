//! "Did you mean": the closest known name to a word a user wrote (claim files, records,
//! system files), by edit distance.

/// ` (did you mean "x"?)` for the closest of `names` to `word`, when one is close.
pub fn nearest(word: &str, names: &[&str]) -> String {
    let best = names
        .iter()
        .map(|n| (edit_distance(word, n), *n))
        .min_by_key(|(d, _)| *d);
    match best {
        Some((d, n)) if d <= word.chars().count().max(3) / 2 + 1 => {
            format!(" (did you mean \"{n}\"?)")
        }
        _ => String::new(),
    }
}

/// A serde message about a user's file, with a suggestion: an unknown field gets the
/// closest of the fields serde expected (`unknown field `outptu`, expected one of `id`,
/// `output`, … (did you mean "output"?)`), a missing `tolerance` says what it is.
pub fn serde_message(msg: &str) -> String {
    if let Some((_, hint)) = unknown_field(msg) {
        return format!("{msg}{hint}");
    }
    if msg.contains("missing field `tolerance`") {
        return format!(
            "{msg} (the expectation's tolerance: the largest distance to the law that passes, e.g. \"tolerance\": 1e-9)"
        );
    }
    msg.to_string()
}

/// The field a serde message says is unknown (`unknown field `outptu`, expected one of
/// `id`, `output`, …`) with the suggestion among the fields serde expected.
pub fn unknown_field(msg: &str) -> Option<(&str, String)> {
    const UNKNOWN: &str = "unknown field `";
    let rest = &msg[msg.find(UNKNOWN)? + UNKNOWN.len()..];
    let word = rest.split('`').next().unwrap_or_default();
    let expected: Vec<&str> = rest
        .split_once("expected")
        .map(|(_, names)| names.split('`').skip(1).step_by(2).collect())
        .unwrap_or_default();
    Some((word, nearest(word, &expected)))
}

/// The Levenshtein distance of two words (in characters).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (prev + usize::from(ca != *cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("varz", "vars"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(
            nearest("varz", &["vars", "assume"]),
            " (did you mean \"vars\"?)"
        );
        assert_eq!(nearest("zzzzzz", &["vars", "assume"]), "");
        assert_eq!(
            serde_message("unknown field `outptu`, expected one of `id`, `output`, `scale` at line 1 column 9"),
            "unknown field `outptu`, expected one of `id`, `output`, `scale` at line 1 column 9 (did you mean \"output\"?)"
        );
        assert_eq!(serde_message("expected `,`"), "expected `,`");
    }
}
