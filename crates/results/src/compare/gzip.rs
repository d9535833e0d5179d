//! Reads gzip files (RFC 1952 around RFC 1951's deflate), so that result files kept
//! compressed (`all.csv.gz`, `all.json.gz` under `results/`) read as they are.
//!
//! A small inflater of its own: the build is offline and no compression crate is among the
//! dependencies; reading a few MB once per command needs no speed. The CRC-32 and length in
//! the gzip trailer are checked, so a wrong decoder or a damaged file cannot pass silently.

use anyhow::{bail, Result};

/// Whether `bytes` start with gzip's magic number.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// The decompressed contents of a gzip file (every member, concatenated).
pub fn decompress(bytes: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        at = member(bytes, at, &mut out)?;
        // Padding of zeros after the last member is allowed (some tools write it).
        if bytes[at..].iter().all(|b| *b == 0) {
            break;
        }
    }
    Ok(out)
}

/// Decompresses the member starting at `at` onto `out`; returns where it ends.
fn member(bytes: &[u8], at: usize, out: &mut Vec<u8>) -> Result<usize> {
    let header = bytes.get(at..at + 10).unwrap_or(&[]);
    if header.len() < 10 || !is_gzip(header) {
        bail!("not a gzip member at byte {at}");
    }
    if header[2] != 8 {
        bail!(
            "gzip compression method {} (only deflate, 8, exists)",
            header[2]
        );
    }
    let flags = header[3];
    let mut p = at + 10;
    let need = |p: usize, n: usize| -> Result<()> {
        if p + n > bytes.len() {
            bail!("the gzip header is cut short");
        }
        Ok(())
    };
    if flags & 4 != 0 {
        need(p, 2)?;
        p += 2 + u16::from_le_bytes([bytes[p], bytes[p + 1]]) as usize;
    }
    for bit in [8, 16] {
        // File name, comment: zero-terminated.
        if flags & bit != 0 {
            while bytes.get(p).is_some_and(|b| *b != 0) {
                p += 1;
            }
            p += 1;
        }
    }
    if flags & 2 != 0 {
        p += 2;
    }
    need(p, 0)?;
    let start = out.len();
    let mut bits = Bits {
        bytes,
        at: p,
        bit: 0,
    };
    inflate(&mut bits, out)?;
    let end = bits.at + usize::from(bits.bit > 0);
    need(end, 8)?;
    let word = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
    if word(end) != crc32(&out[start..]) {
        bail!("the gzip data is damaged (CRC-32 mismatch)");
    }
    if word(end + 4) != (out.len() - start) as u32 {
        bail!("the gzip data is damaged (length mismatch)");
    }
    Ok(end + 8)
}

/// A little-endian bit reader, as deflate packs its bits.
struct Bits<'a> {
    bytes: &'a [u8],
    at: usize,
    bit: u32,
}

impl Bits<'_> {
    fn get(&mut self, n: u32) -> Result<u32> {
        let mut v = 0;
        for i in 0..n {
            let Some(byte) = self.bytes.get(self.at) else {
                bail!("the gzip data is cut short");
            };
            v |= u32::from((byte >> self.bit) & 1) << i;
            self.bit += 1;
            if self.bit == 8 {
                self.bit = 0;
                self.at += 1;
            }
        }
        Ok(v)
    }
}

/// A canonical Huffman code: symbols by code length, and how many codes each length has.
struct Huffman {
    counts: [u16; 16],
    symbols: Vec<u16>,
}

impl Huffman {
    fn new(lengths: &[u8]) -> Self {
        let mut counts = [0u16; 16];
        for &l in lengths {
            counts[l as usize] += 1;
        }
        counts[0] = 0;
        let mut offsets = [0u16; 16];
        for l in 1..16 {
            offsets[l] = offsets[l - 1] + counts[l - 1];
        }
        let mut symbols = vec![0; lengths.len()];
        for (s, &l) in lengths.iter().enumerate() {
            if l != 0 {
                symbols[offsets[l as usize] as usize] = s as u16;
                offsets[l as usize] += 1;
            }
        }
        Huffman { counts, symbols }
    }

    fn decode(&self, bits: &mut Bits) -> Result<u16> {
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for len in 1..16 {
            code |= bits.get(1)? as i32;
            let count = self.counts[len] as i32;
            if code - count < first {
                return Ok(self.symbols[(index + code - first) as usize]);
            }
            index += count;
            first = (first + count) << 1;
            code <<= 1;
        }
        bail!("the gzip data is damaged (no such Huffman code)")
    }
}

const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

/// Inflates deflate blocks until the final one.
fn inflate(bits: &mut Bits, out: &mut Vec<u8>) -> Result<()> {
    loop {
        let last = bits.get(1)? == 1;
        match bits.get(2)? {
            0 => {
                // Stored: byte-aligned LEN, NLEN, then the bytes.
                if bits.bit > 0 {
                    bits.bit = 0;
                    bits.at += 1;
                }
                let b = bits.bytes;
                let Some(h) = b.get(bits.at..bits.at + 4) else {
                    bail!("the gzip data is cut short");
                };
                let len = u16::from_le_bytes([h[0], h[1]]) as usize;
                let Some(data) = b.get(bits.at + 4..bits.at + 4 + len) else {
                    bail!("the gzip data is cut short");
                };
                out.extend_from_slice(data);
                bits.at += 4 + len;
            }
            1 => {
                let mut lengths = [0u8; 288];
                for (i, l) in lengths.iter_mut().enumerate() {
                    *l = match i {
                        0..=143 => 8,
                        144..=255 => 9,
                        256..=279 => 7,
                        _ => 8,
                    };
                }
                let (lit, dist) = (Huffman::new(&lengths), Huffman::new(&[5u8; 30]));
                codes(bits, out, &lit, &dist)?;
            }
            2 => {
                let (lit, dist) = dynamic_tables(bits)?;
                codes(bits, out, &lit, &dist)?;
            }
            _ => bail!("the gzip data is damaged (block type 3)"),
        }
        if last {
            return Ok(());
        }
    }
}

/// The literal/length and distance codes of a dynamic block.
fn dynamic_tables(bits: &mut Bits) -> Result<(Huffman, Huffman)> {
    const ORDER: [usize; 19] = [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ];
    let nlen = bits.get(5)? as usize + 257;
    let ndist = bits.get(5)? as usize + 1;
    let ncode = bits.get(4)? as usize + 4;
    let mut code_lengths = [0u8; 19];
    for &i in &ORDER[..ncode] {
        code_lengths[i] = bits.get(3)? as u8;
    }
    let code = Huffman::new(&code_lengths);
    let mut lengths = Vec::with_capacity(nlen + ndist);
    while lengths.len() < nlen + ndist {
        let sym = code.decode(bits)?;
        let (value, times) = match sym {
            0..=15 => (sym as u8, 1),
            16 => {
                let Some(&prev) = lengths.last() else {
                    bail!("the gzip data is damaged (a repeat with nothing before)");
                };
                (prev, 3 + bits.get(2)?)
            }
            17 => (0, 3 + bits.get(3)?),
            _ => (0, 11 + bits.get(7)?),
        };
        for _ in 0..times {
            lengths.push(value);
        }
    }
    if lengths.len() > nlen + ndist {
        bail!("the gzip data is damaged (code lengths overrun)");
    }
    Ok((
        Huffman::new(&lengths[..nlen]),
        Huffman::new(&lengths[nlen..]),
    ))
}

/// Literals and back-references until the end-of-block code.
fn codes(bits: &mut Bits, out: &mut Vec<u8>, lit: &Huffman, dist: &Huffman) -> Result<()> {
    loop {
        let sym = lit.decode(bits)? as usize;
        match sym {
            0..=255 => out.push(sym as u8),
            256 => return Ok(()),
            _ => {
                let i = sym - 257;
                if i >= 29 {
                    bail!("the gzip data is damaged (length code {sym})");
                }
                let len = LENGTH_BASE[i] as usize + bits.get(LENGTH_EXTRA[i] as u32)? as usize;
                let d = dist.decode(bits)? as usize;
                if d >= 30 {
                    bail!("the gzip data is damaged (distance code {d})");
                }
                let back = DIST_BASE[d] as usize + bits.get(DIST_EXTRA[d] as u32)? as usize;
                if back > out.len() {
                    bail!("the gzip data is damaged (a distance before the start)");
                }
                let from = out.len() - back;
                for k in 0..len {
                    out.push(out[from + k]);
                }
            }
        }
    }
}

/// CRC-32 (IEEE, reflected), as gzip's trailer holds it.
fn crc32(data: &[u8]) -> u32 {
    let mut table = [0u32; 256];
    for (i, t) in table.iter_mut().enumerate() {
        let mut c = i as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
        *t = c;
    }
    !data.iter().fold(!0u32, |c, &b| {
        table[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc32_is_ieee() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn a_stored_block_and_a_fixed_block_read_back() {
        // `printf 'hello hello hello\n' | gzip -n | xxd -i`: a fixed-Huffman block with a
        // back-reference.
        let fixed: [u8; 29] = [
            0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xcb, 0x48, 0xcd, 0xc9,
            0xc9, 0x57, 0xc8, 0x40, 0x90, 0x5c, 0x00, 0x3b, 0x7c, 0x8a, 0xdf, 0x12, 0x00, 0x00,
            0x00,
        ];
        assert_eq!(decompress(&fixed).unwrap(), b"hello hello hello\n");
        // A stored block written by hand: "abc", with its CRC and length.
        let mut stored = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 3, 0, 0xfc, 0xff];
        stored.extend_from_slice(b"abc");
        stored.extend_from_slice(&crc32(b"abc").to_le_bytes());
        stored.extend_from_slice(&3u32.to_le_bytes());
        assert_eq!(decompress(&stored).unwrap(), b"abc");
        // One bit flipped in the data: the CRC says so.
        let mut bad = stored.clone();
        bad[15] ^= 1;
        assert!(decompress(&bad).unwrap_err().to_string().contains("CRC-32"));
        assert!(decompress(&stored[..12]).is_err());
    }

    #[test]
    fn a_committed_result_file_reads_whole() {
        // Dynamic-Huffman blocks, as gzip writes files; the trailer's CRC-32 and length are
        // checked inside, so the whole file decoded right.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../results/h100/driver/b61aad8/all.csv.gz"
        );
        let text = decompress(&std::fs::read(path).unwrap()).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.starts_with("device_index,device_name,"));
        assert_eq!(text.lines().count(), 3693);
    }
}
