//! Gzip input, member after member, as `gzip -d` reads it: a file may hold
//! several gzip members one after another (`cat a.gz b.gz`), and may end in
//! zero bytes that tape drives and some uploaders pad with. `gzip -t`
//! accepts the padding ("trailing zero bytes ignored"), and so does this
//! reader, with one warning; any other bytes after a member are an error.

use std::io::{self, BufRead, Read};

use flate2::bufread::GzDecoder;

/// The two bytes every gzip member starts with (RFC 1952, 2.3.1).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Decompresses every gzip member of `R`, then accepts zero padding.
pub struct GzipMembers<R: BufRead> {
    /// The member being read; `None` once the input is over.
    member: Option<GzDecoder<R>>,
    /// The members read to their end so far.
    members: u64,
    /// Decompressed bytes handed out so far, and where the member being
    /// read began among them.
    out: u64,
    member_start: u64,
    /// Whether the bytes after the last member do not start as a gzip
    /// member does (with its two magic bytes).
    foreign: bool,
    /// The input's name, for the padding warning.
    name: String,
    /// Where the padding warning goes: stderr, but for tests.
    warn: fn(&str),
}

/// Writes a warning to stderr.
fn to_stderr(warning: &str) {
    crate::stderrln!("{warning}");
}

impl<R: BufRead> GzipMembers<R> {
    /// A reader of the gzip data in `src`, named `name` in the warning.
    pub fn new(src: R, name: &str) -> GzipMembers<R> {
        GzipMembers::warning_to(src, name, to_stderr)
    }

    /// [`GzipMembers::new`] whose padding warning goes to `warn`.
    fn warning_to(src: R, name: &str, warn: fn(&str)) -> GzipMembers<R> {
        GzipMembers {
            member: Some(GzDecoder::new(src)),
            members: 0,
            out: 0,
            member_start: 0,
            foreign: false,
            name: name.to_string(),
            warn,
        }
    }
}

impl<R: BufRead> Read for GzipMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            let Some(member) = &mut self.member else {
                return Ok(0);
            };
            let n = member.read(buf).map_err(|e| self.explain(e))?;
            self.out += n as u64;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            self.members += 1;
            self.member_start = self.out;
            // The member is over: what follows it?
            let Some(member) = self.member.take() else {
                return Ok(0);
            };
            let mut src = member.into_inner();
            let rest = loop {
                match src.fill_buf() {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    result => break result?,
                }
            };
            match rest.first() {
                None => return Ok(0),
                Some(0) => {
                    let zeros = skip_zeros(&mut src)?;
                    (self.warn)(&format!(
                        "sudoku-batch: warning: {}: {zeros} zero bytes after the gzip data ignored \
                         (as gzip does)",
                        self.name
                    ));
                    return Ok(0);
                }
                Some(_) => {
                    let magic = &GZIP_MAGIC[..rest.len().min(GZIP_MAGIC.len())];
                    self.foreign = !rest.starts_with(magic);
                    self.member = Some(GzDecoder::new(src));
                }
            }
        }
    }
}

impl<R: BufRead> GzipMembers<R> {
    /// Says where in the gzip data `e` struck: bytes after the last member
    /// that are no gzip member, or a member cut short or damaged. Damaged
    /// data (not a member merely cut short) may have been decompressed
    /// into garbage before the damage showed (a member's checksum is
    /// checked at its end): the message says which records may hold it.
    fn explain(&self, e: io::Error) -> io::Error {
        let members = self.members;
        let why = if self.foreign {
            format!("the bytes after gzip member {members} are not another gzip member ({e})")
        } else if e.kind() == io::ErrorKind::UnexpectedEof {
            format!("gzip member {} is cut short ({e})", members + 1)
        } else {
            let suspect = match members {
                0 => "every record read from this input".to_string(),
                _ => format!(
                    "the records read from it (after the first {} decompressed bytes)",
                    self.member_start
                ),
            };
            format!(
                "gzip member {} is damaged ({e}): gzip checks a member's data only at its end, \
                 so {suspect} may hold damaged data, and its rows are not to be trusted",
                members + 1
            )
        };
        io::Error::new(e.kind(), why)
    }
}

/// Consumes the zero bytes up to the end of `src`, returning how many.
///
/// # Errors
/// [`io::ErrorKind::InvalidData`] when another byte follows them.
fn skip_zeros(src: &mut impl BufRead) -> io::Result<u64> {
    let mut zeros = 0u64;
    loop {
        let chunk = match src.fill_buf() {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            result => result?,
        };
        if chunk.is_empty() {
            return Ok(zeros);
        }
        let run = chunk.iter().take_while(|&&b| b == 0).count();
        if run < chunk.len() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "byte 0x{:02X} after {} zero bytes of padding after the gzip data",
                    chunk[run],
                    zeros + run as u64
                ),
            ));
        }
        zeros += run as u64;
        src.consume(run);
    }
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;
    use std::io::Write;

    use flate2::write::GzEncoder;
    use flate2::Compression;

    use super::*;

    fn gz(text: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(text).unwrap();
        encoder.finish().unwrap()
    }

    thread_local! {
        /// The warnings of this test thread's readers.
        static WARNINGS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    }

    fn note(warning: &str) {
        WARNINGS.with(|w| w.borrow_mut().push(warning.to_string()));
    }

    /// Reads `data` whole; its warnings are in `WARNINGS`, not on the test
    /// run's stderr.
    fn read(data: &[u8]) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        let src = io::BufReader::with_capacity(3, data);
        GzipMembers::warning_to(src, "t.gz", note).read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn members_then_zero_padding() {
        let mut data = gz(b"one\n");
        data.extend(gz(b"two\n"));
        assert_eq!(read(&data).unwrap(), b"one\ntwo\n");
        assert!(WARNINGS.with(|w| w.borrow().is_empty()));
        data.extend([0u8; 17]);
        assert_eq!(read(&data).unwrap(), b"one\ntwo\n");
        assert_eq!(
            WARNINGS.with(|w| w.take()),
            ["sudoku-batch: warning: t.gz: 17 zero bytes after the gzip data ignored (as gzip does)"]
        );
    }

    #[test]
    fn other_bytes_after_the_data_are_an_error() {
        let mut data = gz(b"one\n");
        data.extend([0, 0, 7]);
        let err = read(&data).unwrap_err();
        assert!(
            err.to_string().contains("byte 0x07 after 2 zero bytes"),
            "{err}"
        );
        let mut data = gz(b"one\n");
        data.extend(gz(b"two\n"));
        data.extend(b"junk");
        let err = read(&data).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the bytes after gzip member 2 are not another gzip member"),
            "{err}"
        );
    }

    #[test]
    fn a_member_cut_short_is_named_wherever_the_cut() {
        let second = gz(&b"two\n".repeat(100));
        // In the header, in the deflate data, in the trailer.
        for keep in [1, 2, 5, 12, second.len() / 2, second.len() - 6] {
            let mut data = gz(b"one\n");
            data.extend(&second[..keep]);
            let err = read(&data).unwrap_err();
            assert!(
                err.to_string().starts_with("gzip member 2 is cut short ("),
                "{keep}: {err}"
            );
        }
        let first = gz(b"one\n");
        let err = read(&first[..first.len() - 1]).unwrap_err();
        assert!(
            err.to_string().starts_with("gzip member 1 is cut short"),
            "{err}"
        );
    }

    #[test]
    fn a_damaged_member_says_which_records_may_hold_damaged_data() {
        // The trailer's checksum changed: the data decompresses, and is
        // found wrong only at the member's end.
        let mut first = gz(&b"one\n".repeat(50));
        let crc = first.len() - 8;
        first[crc] ^= 0xff;
        let err = read(&first).unwrap_err();
        let message = err.to_string();
        assert!(
            message.starts_with("gzip member 1 is damaged (")
                && message.contains("every record read from this input may hold damaged data"),
            "{message}"
        );
        let mut data = gz(b"one\n");
        let mut second = gz(b"two\n");
        let crc = second.len() - 8;
        second[crc] ^= 0xff;
        data.extend(second);
        let message = read(&data).unwrap_err().to_string();
        assert!(
            message.starts_with("gzip member 2 is damaged (")
                && message
                    .contains("the records read from it (after the first 4 decompressed bytes)"),
            "{message}"
        );
    }
}
