//! Readers of a claim's tables: each value of the kind's table is read through one of
//! these, with an error naming the key.

/// Reads a list of strings (missing: empty).
pub(crate) fn str_list(t: &toml::Table, key: &str) -> Result<Vec<String>, String> {
    match t.get(key) {
        None => Ok(Vec::new()),
        Some(toml::Value::Array(a)) => a
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| format!("`{key}` must be a list of strings"))
            })
            .collect(),
        Some(_) => Err(format!("`{key}` must be a list of strings")),
    }
}

/// Reads an ordered list of `[name, expression]` pairs, or a table `name = "expr"`
/// (order of the file).
pub(crate) fn pairs(t: &toml::Table, key: &str) -> Result<Vec<(String, String)>, String> {
    match t.get(key) {
        None => Ok(Vec::new()),
        Some(toml::Value::Table(m)) => m
            .iter()
            .map(|(k, v)| {
                v.as_str()
                    .map(|s| (k.clone(), s.to_string()))
                    .ok_or_else(|| format!("`{key}.{k}` must be a string"))
            })
            .collect(),
        Some(toml::Value::Array(a)) => a
            .iter()
            .map(|p| match p.as_array().map(|x| x.as_slice()) {
                Some([toml::Value::String(n), toml::Value::String(e)]) => {
                    Ok((n.clone(), e.clone()))
                }
                _ => Err(format!("`{key}` must hold [name, expression] pairs")),
            })
            .collect(),
        Some(_) => Err(format!("`{key}` must be a table or a list of pairs")),
    }
}
