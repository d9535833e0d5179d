//! A row's words as types (status, mode, conditions, unit, clock events): each word written once, for the runner to write and every reader to match.

use crate::words::Words;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

crate::words! {
    /// Outcome of one test (the `status` column).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Status {
        /// Timed, or verified equal to the reference.
        Ok = "ok",
        /// The device lacks a feature the test needs; its note says which.
        Unsupported = "unsupported",
        /// `--verify` found a difference from the reference.
        Mismatch = "mismatch",
        /// A Vulkan call failed.
        Error = "error",
        /// Not run: the run was interrupted (Ctrl-C) before this test.
        Interrupted = "interrupted",
    }
}

crate::words! {
    /// What a run does with each test (the `mode` column).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Mode {
        /// Warm up, then time `samples` dispatches.
        Time = "time",
        /// One dispatch with the output write on, compared with the CPU reference.
        Verify = "verify",
    }
}

crate::words! {
    /// Under what conditions a row was timed (the `conditions` column).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub enum Conditions {
        /// Not checked (verify mode, a row that did not run, or no drift check and no
        /// clock): an empty cell.
        #[default]
        Unchecked = "",
        /// At the steady clock, with the baseline within the drift limit before and after.
        Steady = "steady",
        /// Timed again (its clock was low, or the drift check around its block was off), and
        /// then steady.
        Remeasured = "re-measured",
        /// The clock stayed below the floor of the steady clock, however often it was timed.
        Throttled = "throttled",
        /// The clock was normal but the baseline was slow and stayed slow: another process.
        Contended = "contended",
        /// The baseline was off and did not come back, and no clock tells why.
        Disturbed = "disturbed",
    }
}

impl Conditions {
    /// Whether the row's time is not the steady-state figure (and `--strict` fails).
    pub fn is_flagged(self) -> bool {
        matches!(
            self,
            Conditions::Throttled | Conditions::Contended | Conditions::Disturbed
        )
    }
}

crate::words! {
    /// What a test's count (`loads_per_dispatch`, `gloads_per_s`, `loads_per_clk_per_cu`)
    /// counts (the `unit` column).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Unit {
        /// Loads (or loop iterations, for the control loops).
        Loads = "loads",
        /// Arithmetic or subgroup operations (the instruction suite), integer operations of
        /// the matrix suite (a multiply-add counts two).
        Ops = "ops",
        /// Floating-point operations of the matrix suite (a multiply-add counts two).
        Flops = "flops",
        /// Bytes copied or filled by a transfer command.
        Bytes = "bytes",
        /// Dispatches recorded (what a dispatch costs).
        Dispatches = "dispatches",
        /// Submissions waited for, one after another.
        Submits = "submits",
        /// Timestamp pairs written back to back.
        Timestamps = "timestamps",
    }
}

crate::words! {
    /// A reason the driver gave for holding the clock down (NVML's clock-event reasons, as
    /// nvidia-smi names them), in NVML's order: the `i`-th is NVML's bit `1 << i`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
    pub enum ClockEvent {
        Idle = "idle",
        ApplicationClocksSetting = "application clocks setting",
        PowerCap = "power cap",
        HardwareSlowdown = "hardware slowdown",
        SyncBoost = "sync boost",
        ThermalSlowdown = "thermal slowdown",
        HardwareThermalSlowdown = "hardware thermal slowdown",
        PowerBrake = "power brake",
        DisplayClockSetting = "display clock setting",
    }
}

impl ClockEvent {
    /// The reason's bit in NVML's mask.
    pub fn nvml_bit(self) -> u64 {
        let i = Self::ALL
            .iter()
            .position(|e| *e == self)
            .unwrap_or_default();
        1 << i
    }
}

/// The reasons of a row's `clock_events` cell, in NVML's order, written joined with `+`
/// (`power cap+thermal slowdown`; empty for none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClockEvents(pub Vec<ClockEvent>);

impl ClockEvents {
    /// The reasons of NVML's mask `bits` (bits NVML has no name for are left out).
    pub fn from_nvml(bits: u64) -> Self {
        ClockEvents(
            ClockEvent::ALL
                .iter()
                .copied()
                .filter(|e| bits & e.nvml_bit() != 0)
                .collect(),
        )
    }

    /// The reasons a row's `clock_events` names, of NVML's mask `bits`: all but `idle`. A
    /// row's own kernels kept the GPU busy while it was read, yet NVML sets the idle bit on
    /// H100s and H200s under load: 51,979 of the 52,110 rows with driver readings in the
    /// committed results carry it (nvidia-smi shows it in every sample of a busy run too), so
    /// it says nothing about a row.
    pub fn of_row(bits: u64) -> Self {
        Self::from_nvml(bits & !ClockEvent::Idle.nvml_bit())
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The cell's text of `text`; `None` where a part is no reason NVML names.
    pub fn parse(text: &str) -> Option<Self> {
        if text.is_empty() {
            return Some(ClockEvents::default());
        }
        text.split('+')
            .map(ClockEvent::from_word)
            .collect::<Option<Vec<_>>>()
            .map(ClockEvents)
    }
}

impl std::fmt::Display for ClockEvents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            f.write_str(e.word())?;
        }
        Ok(())
    }
}

/// The words of `T`, for an error: `ok, unsupported, …`.
fn listed<T: Words>() -> String {
    T::ALL
        .iter()
        .map(|w| format!("`{}`", w.word()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A text cell as read (a CSV cell, a JSON string).
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    String::deserialize(d)
}

/// The error for a cell `word` that is none of `T`'s words.
fn unknown<T: Words, E: serde::de::Error>(word: &str) -> E {
    E::custom(format!("`{word}` is not one of {}", listed::<T>()))
}

/// Writes a word (an empty one as an empty cell, JSON `null`).
fn write_word<S: Serializer>(word: &str, s: S) -> Result<S::Ok, S::Error> {
    if word.is_empty() {
        s.serialize_none()
    } else {
        s.serialize_str(word)
    }
}

/// Serde for a column of words that may be empty: `None` is an empty cell (`null`), as in a
/// file older than the column.
pub mod word_opt {
    use super::*;

    /// Writes the word, or an empty cell.
    pub fn serialize<T: Words, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        write_word(v.map_or("", |w| w.word()), s)
    }

    /// Reads a word, or `None` from an empty cell; another text is an error that lists the
    /// words.
    pub fn deserialize<'de, T: Words, D: Deserializer<'de>>(d: D) -> Result<Option<T>, D::Error> {
        let word = text(d)?;
        if word.is_empty() {
            return Ok(None);
        }
        T::from_word(&word)
            .map(Some)
            .ok_or_else(|| unknown::<T, _>(&word))
    }
}

impl Serialize for Conditions {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        write_word(self.word(), s)
    }
}

impl<'de> Deserialize<'de> for Conditions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let word = text(d)?;
        Conditions::from_word(&word).ok_or_else(|| unknown::<Conditions, _>(&word))
    }
}

impl Serialize for ClockEvents {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        write_word(&self.to_string(), s)
    }
}

impl<'de> Deserialize<'de> for ClockEvents {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let cell = text(d)?;
        ClockEvents::parse(&cell).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "`{cell}` is not reasons joined with `+` of {}",
                listed::<ClockEvent>()
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_events_are_named_by_nvml_bits() {
        // nvml.h's `nvmlClocksEventReason*` values, each with nvidia-smi's name.
        let bits = [
            (0x1, "idle"),
            (0x2, "application clocks setting"),
            (0x4, "power cap"),
            (0x8, "hardware slowdown"),
            (0x10, "sync boost"),
            (0x20, "thermal slowdown"),
            (0x40, "hardware thermal slowdown"),
            (0x80, "power brake"),
            (0x100, "display clock setting"),
        ];
        let named = |bits| ClockEvents::from_nvml(bits).to_string();
        for (bit, name) in bits {
            assert_eq!(named(bit), name, "bit {bit:#x}");
        }
        assert_eq!(named(0x24), "power cap+thermal slowdown");
        assert_eq!(named(0), "");
        // A bit NVML names no reason for is left out.
        assert_eq!(named(0x1 | 1 << 40), "idle");
        assert_eq!(named(0x1ff), bits.map(|(_, n)| n).join("+"));
        // A row names every reason but idle.
        assert_eq!(ClockEvents::of_row(0x1).to_string(), "");
        assert_eq!(ClockEvents::of_row(0x1 | 0x4).to_string(), "power cap");
        assert_eq!(
            ClockEvents::of_row(0x1ff).to_string(),
            bits[1..]
                .iter()
                .map(|(_, n)| *n)
                .collect::<Vec<_>>()
                .join("+")
        );
        // A cell reads back as written; a word that is no reason is refused.
        assert_eq!(
            ClockEvents::parse("idle+power cap"),
            Some(ClockEvents::from_nvml(0x5))
        );
        assert_eq!(ClockEvents::parse(""), Some(ClockEvents::default()));
        assert_eq!(ClockEvents::parse("idle+fast"), None);
    }
}
