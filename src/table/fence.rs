//! Which files a table may read and write when someone other than the person at the terminal
//! drives it (the browser table): the files named on the command line, and any under one folder
//! (the working directory). A path is judged by where it leads once links are followed, so
//! neither `..` nor a link leads out.

use std::path::{Path, PathBuf};

/// The files a table may touch: under `root`, or one of `files`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    root: PathBuf,
    files: Vec<PathBuf>,
}

impl Fence {
    /// The folder `root` and the files named (which must exist).
    pub fn new(root: &Path, files: &[PathBuf]) -> std::io::Result<Fence> {
        Ok(Fence {
            root: root.canonicalize()?,
            files: files.iter().filter_map(|f| f.canonicalize().ok()).collect(),
        })
    }

    /// Whether `path` may be read or written: where it leads (for a file not there yet, where its
    /// folder leads, and its name) is under the root or is one of the files named.
    pub fn allows(&self, path: &Path) -> Result<(), String> {
        let resolved = match path.canonicalize() {
            Ok(p) => p,
            Err(_) => {
                let parent = match path.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p,
                    _ => Path::new("."),
                };
                let name = path.file_name().ok_or_else(|| self.refusal(path))?;
                parent.canonicalize().map_err(|_| self.refusal(path))?.join(name)
            }
        };
        if resolved.starts_with(&self.root) || self.files.contains(&resolved) {
            Ok(())
        } else {
            Err(self.refusal(path))
        }
    }

    fn refusal(&self, path: &Path) -> String {
        format!(
            "error: {} is outside what this table may open: files under {} and the files named when it started\n",
            crate::limits::clip(&path.display().to_string()),
            self.root.display()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_takes_files_under_its_root_and_those_named_only() {
        let base = std::env::temp_dir().join(format!("turnscript-fence-{}", std::process::id()));
        let root = base.join("root");
        let out = base.join("out");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("named.turn"), "x").unwrap();
        std::fs::write(out.join("other.turn"), "x").unwrap();
        let fence = Fence::new(&root, &[out.join("named.turn")]).unwrap();
        assert!(fence.allows(&root.join("sub/new.tsession")).is_ok());
        assert!(fence.allows(&out.join("named.turn")).is_ok());
        assert!(fence.allows(&out.join("other.turn")).is_err());
        assert!(fence.allows(&root.join("../out/other.turn")).is_err());
        assert!(fence.allows(&root.join("no-such-folder/x")).is_err());
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(&out, root.join("link")).unwrap();
            assert!(fence.allows(&root.join("link/other.turn")).is_err());
            assert!(fence.allows(&root.join("link/new.tsession")).is_err());
        }
        std::fs::remove_dir_all(&base).unwrap();
    }
}
