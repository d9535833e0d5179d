//! Every file a user names for perftest to write (the run's `--csv` and `--json`, `report -o`, `summary --json`, `fleet --json`) is opened here, one way: never replacing what is not a regular file, never one of the inputs, never a read-only file.

use crate::error::Failure;
use crate::path;
use anyhow::{Context as _, Result};
use std::fs::{File, Metadata, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A user-named output, checked and ready to be written. A regular file (or one not there
/// yet) is written through a temporary file beside it and renamed into place, so an
/// existing file is replaced whole or not at all and keeps its permissions; anything else
/// (a device node such as `/dev/null`, a FIFO, a terminal) is opened now and written in
/// place, never replaced. A symlink is followed: the file it points to is written, the link
/// stays.
#[derive(Debug)]
pub struct OutFile {
    /// The option that named it (`--json`, `-o`), for messages.
    flag: String,
    /// The path as given, for messages.
    path: PathBuf,
    /// Where a write lands: `path` with its symlinks followed.
    target: PathBuf,
    how: How,
}

/// How the bytes reach the target.
#[derive(Debug)]
enum How {
    /// A regular file, or none yet: replaced through a temporary file (`previous`: the file
    /// replaced, whose permissions and owner the new one keeps).
    Replace { previous: Option<Metadata> },
    /// No regular file (a device, a FIFO, a terminal): opened now, written in place.
    InPlace(File),
}

impl OutFile {
    /// Checks `path`, named by `flag`, before anything is read or measured: not empty, not a
    /// folder, not a symlink loop, not one of `inputs` (however spelt: a symlink, a hard
    /// link, `./x`), not a read-only file (by its mode: root could write it, but a file
    /// made read-only is one its owner wants kept), and writable where it is (the
    /// temporary file can be made beside it, or the device opens for writing). Every
    /// refusal is a usage error (exit 2) naming the path.
    pub fn open(flag: &str, path: &Path, inputs: &[PathBuf]) -> Result<Self, Failure> {
        Self::check(flag, path, inputs, true)
    }

    /// [`OutFile::open`]'s checks, then the file to stream into as rows come (the run's
    /// CSV, which must hold every row written so far should the run be killed): a device
    /// as it is; a regular file truncated now and written in place (a temporary file
    /// renamed at the end would leave a killed run's rows under another name, so the
    /// folder need not take one).
    pub fn open_stream(flag: &str, path: &Path, inputs: &[PathBuf]) -> Result<File, Failure> {
        let out = Self::check(flag, path, inputs, false)?;
        match out.how {
            How::InPlace(file) => Ok(file),
            How::Replace { .. } => OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(&out.target)
                .map_err(|e| {
                    Failure::Usage(format!("cannot write {flag} {}: {e}", path.display()))
                }),
        }
    }

    /// The checks of [`OutFile::open`]; `whole`: the file is written whole, through a
    /// temporary file beside it, which is made and removed now.
    fn check(flag: &str, path: &Path, inputs: &[PathBuf], whole: bool) -> Result<Self, Failure> {
        // `--json out.json`; a variable's `PERFTEST_TRACE=t.tsv`.
        let space = if flag.ends_with('=') { "" } else { " " };
        let cannot = |why: String| {
            Failure::Usage(format!(
                "cannot write {flag}{space}{}: {why}",
                path.display()
            ))
        };
        if path.as_os_str().is_empty() {
            return Err(Failure::Usage(format!("{flag} needs a file name")));
        }
        if let Some(input) = inputs.iter().find(|i| path::same_file(i, path)) {
            return Err(Failure::Usage(format!(
                "{flag} {} is one of the inputs ({}); give the output its own path",
                path.display(),
                input.display()
            )));
        }
        #[cfg(unix)]
        if let Some(n) = path::own_stream(path) {
            // The run's own stdout or stderr, whatever is behind it: written through it.
            use std::os::fd::AsFd as _;
            let fd = match n {
                1 => std::io::stdout().as_fd().try_clone_to_owned(),
                _ => std::io::stderr().as_fd().try_clone_to_owned(),
            };
            return Ok(OutFile {
                flag: flag.to_string(),
                path: path.to_path_buf(),
                target: path.to_path_buf(),
                how: How::InPlace(File::from(fd.map_err(|e| cannot(e.to_string()))?)),
            });
        }
        let target = path::final_target(path).map_err(|e| cannot(e.to_string()))?;
        let existing = std::fs::metadata(&target).ok();
        if existing.as_ref().is_some_and(Metadata::is_dir) {
            return Err(cannot("it is a directory; give a file name".into()));
        }
        if let Some(m) = &existing {
            if read_only(m) {
                return Err(cannot(format!(
                    "it is read-only{}; perftest does not replace a file that cannot be \
                     written (make it writable, or give another path)",
                    mode(m)
                )));
            }
        }
        let how = match existing {
            // Windows' NUL has no metadata and cannot be renamed onto: written in place.
            None if path::is_null_device(path) => {
                How::InPlace(open_in_place(&target).map_err(|e| cannot(e.to_string()))?)
            }
            Some(m) if !m.is_file() => {
                How::InPlace(open_in_place(&target).map_err(|e| cannot(e.to_string()))?)
            }
            previous => {
                // A regular file the caller may not write (not root) is refused as root's
                // read-only one is: the rename would replace it all the same.
                if previous.is_some() {
                    OpenOptions::new()
                        .write(true)
                        .open(&target)
                        .map_err(|e| cannot(e.to_string()))?;
                }
                // The temporary file is made and removed now: a folder that cannot take it
                // fails before any work, and a killed run leaves nothing behind.
                if whole {
                    let tmp = temporary(&target);
                    OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .open(&tmp)
                        .map_err(|e| cannot(e.to_string()))?;
                    let _ = std::fs::remove_file(&tmp);
                }
                How::Replace { previous }
            }
        };
        Ok(OutFile {
            flag: flag.to_string(),
            path: path.to_path_buf(),
            target,
            how,
        })
    }

    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Refuses the output where it is one of `files` (the files a folder given as input
    /// held, found only once it was searched): a usage error, and nothing is written.
    pub fn refuse_inputs(&self, files: &[PathBuf]) -> Result<(), Failure> {
        match files.iter().find(|f| path::same_file(f, &self.path)) {
            Some(input) => Err(Failure::Usage(format!(
                "{} {} is one of the inputs ({}); give the output its own path",
                self.flag,
                self.path.display(),
                input.display()
            ))),
            None => Ok(()),
        }
    }

    /// Writes `bytes` as the whole file.
    pub fn write(self, bytes: &[u8]) -> Result<()> {
        self.write_with(|out| Ok(out.write_all(bytes)?))
    }

    /// Writes the whole file with `fill`: into the device as it is, or into a temporary
    /// file beside the target, synced and renamed onto it (removed on any failure, so the
    /// file it would replace is untouched).
    pub fn write_with(self, fill: impl FnOnce(&mut File) -> Result<()>) -> Result<()> {
        let name = format!("{} {}", self.flag, self.path.display());
        match self.how {
            How::InPlace(mut file) => fill(&mut file)
                .and_then(|_| Ok(file.flush()?))
                .with_context(|| format!("cannot write {name}")),
            How::Replace { previous } => {
                let tmp = temporary(&self.target);
                let written = (|| -> Result<()> {
                    let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
                    if let Some(m) = &previous {
                        keep_owner(&file, m);
                        file.set_permissions(m.permissions())?;
                    }
                    fill(&mut file)?;
                    file.sync_all()?;
                    std::fs::rename(&tmp, &self.target)?;
                    Ok(())
                })();
                if written.is_err() {
                    let _ = std::fs::remove_file(&tmp);
                }
                written.with_context(|| format!("cannot write {name}"))
            }
        }
    }
}

/// Opens what is no regular file for writing, as it is (no truncation, no creation).
fn open_in_place(target: &Path) -> std::io::Result<File> {
    OpenOptions::new().write(true).open(target)
}

/// The temporary file beside `target` (hidden, named for it and this process).
fn temporary(target: &Path) -> PathBuf {
    let name = target.file_name().map_or("perftest-output".into(), |n| {
        n.to_string_lossy().into_owned()
    });
    target.with_file_name(format!(".{name}.partial-{}", std::process::id()))
}

/// Whether a file is read-only by its mode: no write permission for anyone (root ignores
/// the mode, so a failed open cannot tell).
fn read_only(m: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        m.permissions().mode() & 0o222 == 0
    }
    #[cfg(not(unix))]
    {
        m.permissions().readonly()
    }
}

/// ` (mode 0444)`, where the platform has modes.
fn mode(m: &Metadata) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        format!(" (mode {:04o})", m.permissions().mode() & 0o7777)
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        String::new()
    }
}

/// Gives the new file the owner of the one it replaces (root replacing a user's file), as
/// far as this process may: a failure leaves it ours.
fn keep_owner(file: &File, previous: &Metadata) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = std::os::unix::fs::fchown(file, Some(previous.uid()), Some(previous.gid()));
    }
    #[cfg(not(unix))]
    {
        let _ = (file, previous);
    }
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
        let d = std::env::temp_dir().join(format!("perftest-out-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }

    fn usage(r: Result<OutFile, Failure>) -> String {
        match r {
            Err(Failure::Usage(m)) => m,
            other => panic!("not a usage error: {other:?}"),
        }
    }

    #[test]
    fn a_regular_file_is_replaced_whole_and_keeps_its_mode() {
        let d = dir("replace");
        let out = d.0.join("out.json");
        std::fs::write(&out, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        OutFile::open("--json", &out, &[])
            .unwrap()
            .write(b"new")
            .unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&out).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        // A failed write leaves the old file and no temporary one.
        let failed = OutFile::open("--json", &out, &[])
            .unwrap()
            .write_with(|_| anyhow::bail!("the document could not be made"));
        assert!(failed.is_err());
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "new");
        assert_eq!(std::fs::read_dir(&d.0).unwrap().count(), 1);
    }

    #[test]
    fn outputs_that_name_inputs_or_folders_are_refused() {
        let d = dir("refuse");
        let input = d.0.join("run.csv");
        std::fs::write(&input, "x").unwrap();
        let spelt = d.0.join(".").join("run.csv");
        let err = usage(OutFile::open(
            "--json",
            &spelt,
            std::slice::from_ref(&input),
        ));
        assert!(err.contains("is one of the inputs"), "{err}");
        let err = usage(OutFile::open("--json", &d.0, &[]));
        assert!(err.contains("is a directory"), "{err}");
        let err = usage(OutFile::open("--json", Path::new(""), &[]));
        assert_eq!(err, "--json needs a file name");
        let err = usage(OutFile::open("-o", &d.0.join("no/such/dir/x.html"), &[]));
        assert!(err.starts_with("cannot write -o "), "{err}");
        // Found in a folder only later: refused then.
        let out = OutFile::open("--json", &d.0.join("verdict.json"), &[]).unwrap();
        assert!(out.refuse_inputs(&[d.0.join("verdict.json")]).is_err());
        assert!(out.refuse_inputs(&[input]).is_ok());
    }

    #[cfg(unix)]
    #[test]
    fn a_stream_is_written_into_its_path_as_it_comes() {
        use std::os::unix::fs::MetadataExt;
        let d = dir("stream");
        let out = d.0.join("run.csv");
        std::fs::write(&out, "an older run, longer than the new one").unwrap();
        let inode = std::fs::metadata(&out).unwrap().ino();
        let mut file = OutFile::open_stream("--csv", &out, &[]).unwrap();
        // Truncated at once, and each write in the file as it is made (no rename to come).
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "");
        file.write_all(b"header\n").unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "header\n");
        assert_eq!(std::fs::metadata(&out).unwrap().ino(), inode);
        let err = OutFile::open_stream("--csv", &d.0, &[])
            .unwrap_err()
            .to_string();
        assert!(err.contains("is a directory"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_read_only_file_is_refused_even_for_root() {
        use std::os::unix::fs::PermissionsExt;
        let d = dir("ro");
        let out = d.0.join("kept.json");
        std::fs::write(&out, "kept").unwrap();
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o444)).unwrap();
        let err = usage(OutFile::open("--json", &out, &[]));
        assert!(err.contains("read-only (mode 0444)"), "{err}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_followed_and_fifos_written_in_place() {
        let d = dir("link");
        let real = d.0.join("real.html");
        let link = d.0.join("link.html");
        std::os::unix::fs::symlink("real.html", &link).unwrap();
        OutFile::open("-o", &link, &[])
            .unwrap()
            .write(b"page")
            .unwrap();
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "page");
        // A loop is an error, not a hang.
        let (a, b) = (d.0.join("a"), d.0.join("b"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let err = usage(OutFile::open("-o", &a, &[]));
        assert!(err.contains("symbolic links"), "{err}");
        // A FIFO: its reader gets the bytes, the FIFO stays.
        let fifo = d.0.join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        OutFile::open("-o", &fifo, &[])
            .unwrap()
            .write(b"through")
            .unwrap();
        assert_eq!(reader.join().unwrap(), "through");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo());
    }
}
