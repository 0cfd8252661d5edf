//! Binning: a series reduced once per run to a fixed number of time bins,
//! so that drawing a frame costs in proportion to the canvas, not to the run.
//!
//! ```text
//!   from_run (once, O(records))          draw (every frame, O(pixels))
//!   items ──► Binned: BINS time bins ──► columns of ~1 CSS px ──► paths/markers
//!             (min, max, first, last)     (bins merged)
//! ```
//!
//! A series keeps its raw items (for tests and its data table) plus a
//! [`Binned`] summary: the run's time axis cut into [`BINS`] equal bins, each
//! holding the minimum, maximum, first and last value of the items in it.
//! Drawing (`draw::chart_frame`) merges bins into pixel columns, so even 30 s
//! at 1 Gbit/s (173,000 data segments) costs a few thousand vertices per
//! frame. Within a column the picture is the min–max envelope, which at one
//! pixel per column looks the same as drawing every item.

/// Time bins per series. More than the columns of any plausible canvas (a
/// 1200 CSS px chart has about 1100 columns), few enough that merging them
/// every frame is cheap.
pub const BINS: usize = 4096;

/// Summary of the items falling in one time bin (or, merged, one column).
/// `lo`/`hi` span the finite values; `first`/`last` may be NaN, which marks
/// "undefined" (a gap in the line, e.g. ssthresh while still infinite).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bin {
    /// Time of the bin's first item (ns).
    pub t: f64,
    pub lo: f64,
    pub hi: f64,
    pub first: f64,
    pub last: f64,
    pub count: u32,
}

impl Bin {
    fn new(t: f64, lo: f64, hi: f64) -> Self {
        let (flo, fhi) = if lo.is_finite() && hi.is_finite() {
            (lo, hi)
        } else {
            (f64::NAN, f64::NAN)
        };
        Bin {
            t,
            lo: flo,
            hi: fhi,
            first: lo,
            last: hi,
            count: 1,
        }
    }

    fn absorb(&mut self, other: &Bin) {
        if other.lo.is_finite() {
            self.lo = if self.lo.is_finite() {
                self.lo.min(other.lo)
            } else {
                other.lo
            };
            self.hi = if self.hi.is_finite() {
                self.hi.max(other.hi)
            } else {
                other.hi
            };
        }
        self.last = other.last;
        self.count += other.count;
    }

    /// Whether the bin holds any finite value.
    pub fn has_values(&self) -> bool {
        self.lo.is_finite()
    }
}

/// One column of a chart: the bins merged into it and its index.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Column {
    pub index: usize,
    pub bin: Bin,
}

/// A series summarised into [`BINS`] time bins over `[0, end_ns]`; only
/// non-empty bins are stored.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Binned {
    bin_ns: f64,
    /// (bin index, summary), by index.
    bins: Vec<(u32, Bin)>,
}

impl Binned {
    /// Summarises `items` — `(time ns, low, high)` in time order; a point
    /// value has `low == high`, NaN is "undefined here" — over `[0, end_ns]`.
    pub fn build(end_ns: f64, items: impl IntoIterator<Item = (f64, f64, f64)>) -> Self {
        let bin_ns = (end_ns / BINS as f64).max(1.0);
        let mut bins: Vec<(u32, Bin)> = Vec::new();
        for (t, lo, hi) in items {
            let idx = ((t / bin_ns) as usize).min(BINS - 1) as u32;
            let item = Bin::new(t, lo, hi);
            match bins.last_mut() {
                Some((i, b)) if *i == idx => b.absorb(&item),
                _ => bins.push((idx, item)),
            }
        }
        Binned { bin_ns, bins }
    }

    pub fn is_empty(&self) -> bool {
        self.bins.is_empty()
    }

    /// Bins whose first item is at or before `t_ns` come first: the split
    /// between the drawn-in-colour part and the faint rest.
    fn split(&self, t_ns: f64) -> usize {
        self.bins.partition_point(|(_, b)| b.t <= t_ns)
    }

    /// The value held at the end of everything up to `t_ns` (NaN if none).
    pub fn last_before(&self, t_ns: f64) -> f64 {
        match self.split(t_ns) {
            0 => f64::NAN,
            k => self.bins[k - 1].1.last,
        }
    }

    /// Merges the bins of items up to (`before == true`) or after `t_ns`
    /// into columns `col_ns` wide. O(bins), independent of the item count.
    pub fn columns(&self, col_ns: f64, t_ns: f64, before: bool) -> Vec<Column> {
        let k = self.split(t_ns);
        let part = if before {
            &self.bins[..k]
        } else {
            &self.bins[k..]
        };
        let col_ns = col_ns.max(1e-9);
        let mut out: Vec<Column> = Vec::new();
        for (idx, b) in part {
            let index = ((*idx as f64 * self.bin_ns) / col_ns) as usize;
            match out.last_mut() {
                Some(c) if c.index == index => c.bin.absorb(b),
                _ => out.push(Column { index, bin: *b }),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bins_keep_the_envelope_and_the_last_value() {
        let b = Binned::build(4096.0, [(0.2, 5.0, 5.0), (0.5, 2.0, 2.0), (0.7, 3.0, 3.0)]);
        let c = b.columns(1.0, f64::INFINITY, true);
        assert_eq!(c.len(), 1);
        assert_eq!((c[0].bin.lo, c[0].bin.hi, c[0].bin.last), (2.0, 5.0, 3.0));
        assert_eq!(c[0].bin.count, 3);
    }
}
