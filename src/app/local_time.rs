//! The Load dialog's dates in the person's local time. A saved game's name holds the UTC time it
//! was saved at ([`files::stamp_of`]); the dialog shows it in this computer's time zone (the
//! browser's on the web) with the offset that zone had at that instant, not today's: a game saved
//! in summer shows summer time (DST) even when looked at in winter, and a zone whose rules changed
//! since shows the offset of the time. On the desktop `chrono::Local` reads the zone (the `TZ`
//! variable, else the system's zone file with its history of offsets; UTC when neither can be
//! read); in the browser JavaScript's `Date` does. The UTC time stays on hover.

use super::files;

/// A saved game's time as the dialog shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalDate {
    /// "2026-11-24 03:33", local time.
    pub date: String,
    /// The offset from UTC then and there, "+01:00".
    pub offset: String,
}

/// Seconds since the Unix epoch of a stamp `YYYYMMDD-HHMMSS` (UTC, [`files::stamp_of`]); `None`
/// for anything else, a date that does not exist (February 30th) or one before 1970.
pub fn epoch_of(stamp: &str) -> Option<i64> {
    let b = stamp.as_bytes();
    if b.len() != 15 || b[8] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = stamp.get(r)?;
        s.bytes().all(|c| c.is_ascii_digit()).then(|| s.parse().ok())?
    };
    let (y, m, d) = (num(0..4)?, num(4..6)?, num(6..8)?);
    let (h, min, s) = (num(9..11)?, num(11..13)?, num(13..15)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || h > 23 || min > 59 || s > 59 {
        return None;
    }
    let secs = days_from_civil(y, m, d) * 86_400 + h * 3600 + min * 60 + s;
    // A day past the month's end rolls over: the stamp of the seconds found is not the same.
    (secs >= 0 && files::utc_stamp(secs as u64) == stamp).then_some(secs)
}

/// Days since 1970-01-01 of a date of the proleptic Gregorian calendar.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The local time of the stamp `YYYYMMDD-HHMMSS` (UTC); `None` when it is not a valid stamp.
pub fn local_date(stamp: &str) -> Option<LocalDate> {
    let secs = epoch_of(stamp)?;
    let (date, offset_secs) = local_of(secs)?;
    let sign = if offset_secs < 0 { '-' } else { '+' };
    let abs = offset_secs.unsigned_abs();
    Some(LocalDate { date, offset: format!("{sign}{:02}:{:02}", abs / 3600, abs / 60 % 60) })
}

/// The local date and time ("2026-11-24 03:33") of `secs` since the epoch, and the zone's offset
/// from UTC then, in seconds east.
#[cfg(not(target_arch = "wasm32"))]
fn local_of(secs: i64) -> Option<(String, i32)> {
    use chrono::Offset;
    let local = chrono::DateTime::from_timestamp(secs, 0)?.with_timezone(&chrono::Local);
    Some((local.format("%Y-%m-%d %H:%M").to_string(), local.offset().fix().local_minus_utc()))
}

/// The local date and time ("2026-11-24 03:33") of `secs` since the epoch, and the zone's offset
/// from UTC then, in seconds east.
#[cfg(target_arch = "wasm32")]
fn local_of(secs: i64) -> Option<(String, i32)> {
    let date = js_sys::Date::new(&wasm_bindgen::JsValue::from_f64(secs as f64 * 1000.0));
    if date.get_time().is_nan() {
        return None;
    }
    let text = format!(
        "{:04}-{:02}-{:02} {:02}:{:02}",
        date.get_full_year(),
        date.get_month() + 1,
        date.get_date(),
        date.get_hours(),
        date.get_minutes()
    );
    // `getTimezoneOffset` is UTC minus local, in minutes.
    Some((text, -(date.get_timezone_offset() as i32) * 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_are_read_back_to_their_seconds() {
        assert_eq!(epoch_of("19700101-000000"), Some(0));
        assert_eq!(epoch_of("20231114-221320"), Some(1_700_000_000));
        assert_eq!(epoch_of("20240229-120000"), Some(1_709_208_000));
        for bad in ["20230229-120000", "20231301-000000", "20231114-241320", "2023111-4221320", "x", ""] {
            assert_eq!(epoch_of(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_local_time_is_the_utc_time_moved_by_the_offset_of_then() {
        let local = local_date("20231114-221320").expect("a valid stamp");
        let sign = if local.offset.starts_with('-') { -1 } else { 1 };
        let (h, m) = local.offset[1..].split_once(':').expect("+hh:mm");
        let offset = sign * (h.parse::<i64>().unwrap() * 3600 + m.parse::<i64>().unwrap() * 60);
        // The local wall time, read as if it were UTC, is the instant plus the offset.
        let wall = format!(
            "{}{}{}-{}{}00",
            &local.date[0..4],
            &local.date[5..7],
            &local.date[8..10],
            &local.date[11..13],
            &local.date[14..16]
        );
        assert_eq!(epoch_of(&wall), Some(1_700_000_000 - 20 + offset), "{local:?}");
        assert_eq!(local_date("not a stamp"), None);
    }
}
