//! Sounds where the platform plays them without a system package: in the browser, short tones
//! made by Web Audio (an oscillator, no sound file); on the desktop none, as Bevy's audio is not
//! built (on Linux it needs ALSA's `-dev` package), which the settings page says ([`PLAYS`]).
//! Settings' "Sounds" switches them ([`crate::app::settings::Look::sounds`]).
//!
//! What sounds: a move on the board ([`Sound::Move`]), and the person's own clock in an online game
//! going under ten seconds ([`Sound::LowTime`], once a turn).

/// Whether this build plays sounds at all (the browser's only).
pub const PLAYS: bool = cfg!(target_arch = "wasm32");

/// A sound the app makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sound {
    /// A move was played on the board.
    Move,
    /// The person's clock has under ten seconds left.
    LowTime,
}

impl Sound {
    /// The tone: its pitch in Hz, its length in seconds, how many beeps.
    pub fn tone(self) -> (f32, f64, u32) {
        match self {
            Sound::Move => (520.0, 0.06, 1),
            Sound::LowTime => (880.0, 0.12, 2),
        }
    }
}

/// Plays `sound` where the platform can ([`PLAYS`]); nothing otherwise, and nothing on failure
/// (a page the person has not touched yet may not start audio).
pub fn play(sound: Sound) {
    #[cfg(target_arch = "wasm32")]
    {
        let (hz, seconds, beeps) = sound.tone();
        for k in 0..beeps {
            let _ = web::beep(hz, seconds, f64::from(k) * seconds * 1.6);
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = sound;
}

/// Whether the person's clock going from `before` to `now` ms crossed under ten seconds: the
/// moment for [`Sound::LowTime`].
pub fn low_time_crossed(before: Option<u64>, now: u64) -> bool {
    now < 10_000 && before.is_none_or(|b| b >= 10_000)
}

#[cfg(target_arch = "wasm32")]
mod web {
    use std::cell::RefCell;

    use wasm_bindgen::JsValue;

    thread_local! {
        /// The page's one audio context, made at the first sound.
        static CONTEXT: RefCell<Option<web_sys::AudioContext>> = const { RefCell::new(None) };
    }

    /// A sine beep of `hz` for `seconds`, starting `delay` seconds from now, fading out.
    pub fn beep(hz: f32, seconds: f64, delay: f64) -> Result<(), JsValue> {
        CONTEXT.with(|context| {
            let mut context = context.borrow_mut();
            if context.is_none() {
                *context = Some(web_sys::AudioContext::new()?);
            }
            let ctx = context.as_ref().expect("made above");
            // A context made before the person touched the page starts suspended.
            let _ = ctx.resume();
            let oscillator = ctx.create_oscillator()?;
            let gain = ctx.create_gain()?;
            oscillator.frequency().set_value(hz);
            let start = ctx.current_time() + delay;
            gain.gain().set_value_at_time(0.12, start)?;
            gain.gain().exponential_ramp_to_value_at_time(0.001, start + seconds)?;
            oscillator.connect_with_audio_node(&gain)?;
            gain.connect_with_audio_node(&ctx.destination())?;
            oscillator.start_with_when(start)?;
            oscillator.stop_with_when(start + seconds)?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_low_time_sound_comes_once_as_the_clock_crosses_ten_seconds() {
        assert!(!low_time_crossed(Some(12_000), 10_000));
        assert!(low_time_crossed(Some(10_000), 9_999));
        assert!(!low_time_crossed(Some(9_999), 9_000), "once");
        assert!(low_time_crossed(None, 5_000), "a game opened with little time left");
        assert_ne!(Sound::Move.tone(), Sound::LowTime.tone());
    }
}
