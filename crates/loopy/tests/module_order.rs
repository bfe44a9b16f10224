//! The crate's modules form a line, not a circle: each uses only the modules
//! before it in [`ORDER`] (outside its tests). A module that reached forward
//! (`stopper` printing itself through `notation`, say) would tie the files
//! together again, so that none can be read or changed alone.

use std::path::Path;

/// Each module may use those before it.
const ORDER: [&str; 8] = [
    "work", "game", "compare", "stopper", "stops", "sides", "value", "notation",
];

/// The `crate::module` paths a source file uses outside its test module and its
/// comments.
fn uses(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut found = Vec::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '_')
                .collect();
            if ORDER.contains(&name.as_str()) && !found.contains(&name) {
                found.push(name);
            }
        }
    }
    found
}

#[test]
fn each_module_uses_only_the_ones_before_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut problems = Vec::new();
    for (k, module) in ORDER.iter().enumerate() {
        let files: Vec<std::path::PathBuf> = {
            let single = src.join(format!("{module}.rs"));
            if single.exists() {
                vec![single]
            } else {
                let dir = src.join(module);
                let mut v: Vec<_> = std::fs::read_dir(&dir)
                    .unwrap_or_else(|_| panic!("no module {module}"))
                    .map(|e| e.unwrap().path())
                    .filter(|p| p.extension().is_some_and(|e| e == "rs"))
                    .collect();
                v.sort();
                v
            }
        };
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for used in uses(&text) {
                let at = ORDER.iter().position(|m| *m == used).unwrap();
                if at >= k && used != *module {
                    problems.push(format!(
                        "{} uses crate::{used}, which comes after {module}",
                        file.display()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Every module of the crate is in the order.
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if name != "lib" {
            assert!(
                ORDER.contains(&name.as_str()),
                "module {name} is not in ORDER"
            );
        }
    }
}
