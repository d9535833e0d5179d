//! Output paths: where a write to a path lands once symlinks are followed, and whether two
//! paths name one file.

use std::io;
use std::path::{Path, PathBuf};

/// Links followed before giving up (Linux's own limit).
const MAX_LINKS: usize = 40;

/// The path a write to `path` lands on: `path` with the symlinks of its last component
/// followed. A dangling link names the file a write would create.
pub fn final_target(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&p)?;
                // A relative link is relative to the directory that holds it.
                let next = match p.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
                // A link the kernel resolves but whose text names no path (Linux's
                // `/proc/self/fd/1` → `pipe:[…]`, behind `/dev/stdout` when it is piped): the
                // link itself opens what it stands for. (A link to nothing yet is followed:
                // the file is made where it points.)
                if std::fs::symlink_metadata(&next).is_err() && std::fs::metadata(&p).is_ok() {
                    return Ok(p);
                }
                p = next;
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other(format!(
        "{}: too many levels of symbolic links",
        path.display()
    )))
}

/// The process's own standard output or error (1 or 2) where `path` names it: `/dev/stdout`,
/// `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`, or a symlink to one of them. What is written
/// there goes through that descriptor, at its own offset: a file behind it opened anew (the
/// shell's `> out.txt`) would be written from its start, over the lines the run prints.
pub fn own_stream(path: &Path) -> Option<u8> {
    if !cfg!(unix) {
        return None;
    }
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        let n = p
            .strip_prefix("/proc/self/fd")
            .or_else(|_| p.strip_prefix("/dev/fd"))
            .ok()
            .and_then(|rest| rest.to_str()?.parse::<u8>().ok());
        if let Some(n @ (1 | 2)) = n {
            return Some(n);
        }
        if !std::fs::symlink_metadata(&p).ok()?.file_type().is_symlink() {
            return None;
        }
        let link = std::fs::read_link(&p).ok()?;
        p = match p.parent() {
            Some(dir) => dir.join(link),
            None => link,
        };
    }
    None
}

/// One spelling per file: the canonical path of what `path` names, or, for a file that does
/// not exist yet, the canonical path of its directory plus its name.
fn identity(path: &Path) -> PathBuf {
    let target = final_target(path).unwrap_or_else(|_| path.to_path_buf());
    if let Ok(c) = std::fs::canonicalize(&target) {
        return c;
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(dir), target.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => std::path::absolute(&target).unwrap_or(target),
    }
}

/// Whether `path` names the null device (`/dev/null`; on Windows `NUL`, in any directory and
/// any case, as Windows reads it): what is written there is discarded, so it is never "the
/// same file" as another output, and it is opened as it is, never replaced.
pub fn is_null_device(path: &Path) -> bool {
    if cfg!(windows) {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_ascii_uppercase())
            .unwrap_or_default();
        let stem = name.split(['.', ':']).next().unwrap_or_default().trim_end();
        return stem == "NUL";
    }
    final_target(path)
        .ok()
        .and_then(|t| std::fs::canonicalize(t).ok())
        .is_some_and(|c| c == Path::new("/dev/null"))
}

/// Whether writes to `a` and to `b` would land in the same file, however the two are spelt
/// (`out.csv`, `./out.csv`, `dir/../out.csv`, an absolute path, a symlink, a hard link).
pub fn same_file(a: &Path, b: &Path) -> bool {
    if is_null_device(a) || is_null_device(b) {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return (ma.dev(), ma.ino()) == (mb.dev(), mb.ino());
        }
    }
    identity(a) == identity(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A directory removed on drop, also when the test panics.
    struct Dir(PathBuf);

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn dir(tag: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("perftest-path-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("sub")).unwrap();
        Dir(d)
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_runs_own_stdout_and_stderr_are_streams_under_every_spelling() {
        for (p, n) in [
            ("/dev/stdout", Some(1)),
            ("/dev/stderr", Some(2)),
            ("/dev/fd/1", Some(1)),
            ("/proc/self/fd/2", Some(2)),
            ("/dev/fd/0", None),
            ("/dev/null", None),
        ] {
            assert_eq!(own_stream(Path::new(p)), n, "{p}");
        }
        let d = dir("own-stream");
        let link = d.0.join("out");
        std::os::unix::fs::symlink("/dev/stdout", &link).unwrap();
        assert_eq!(own_stream(&link), Some(1));
        let file = d.0.join("file");
        std::fs::write(&file, "").unwrap();
        assert_eq!(own_stream(&file), None);
    }

    #[test]
    fn spellings_of_one_file_are_the_same_file() {
        let d = dir("same");
        let a = d.0.join("out.txt");
        // Not yet existing: directory spellings differ, the file is the same.
        assert!(same_file(&a, &d.0.join("sub/../out.txt")));
        assert!(same_file(&a, &d.0.join("./out.txt")));
        assert!(!same_file(&a, &d.0.join("other.txt")));
        assert!(!same_file(&a, &d.0.join("sub/out.txt")));
        #[cfg(unix)]
        {
            // A dangling symlink names the file it would create.
            let link = d.0.join("sub/link.txt");
            std::os::unix::fs::symlink("../out.txt", &link).unwrap();
            assert_eq!(final_target(&link).unwrap(), d.0.join("sub/../out.txt"));
            assert!(same_file(&a, &link));
            std::fs::write(&a, "x").unwrap();
            assert!(same_file(&a, &link));
            let hard = d.0.join("hard.txt");
            std::fs::hard_link(&a, &hard).unwrap();
            assert!(same_file(&hard, &link));
            assert!(!same_file(&hard, &d.0.join("sub")));
        }
    }

    #[test]
    fn the_null_device_is_never_the_same_file() {
        let null = if cfg!(windows) { "NUL" } else { "/dev/null" };
        assert!(is_null_device(Path::new(null)));
        assert!(!same_file(Path::new(null), Path::new(null)));
        assert!(!is_null_device(Path::new("null.csv")));
        #[cfg(unix)]
        {
            // A link to it is it.
            let d = dir("null");
            let link = d.0.join("out.json");
            std::os::unix::fs::symlink("/dev/null", &link).unwrap();
            assert!(is_null_device(&link));
            // On Linux, NUL is just a file name.
            assert!(!is_null_device(Path::new("NUL")));
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_loop_is_an_error() {
        let d = dir("loop");
        let (a, b) = (d.0.join("a"), d.0.join("b"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        assert!(final_target(&a).is_err());
        assert!(!same_file(&a, &d.0.join("c")));
    }
}
