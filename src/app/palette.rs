//! The players' colours and the board marks' colours as data, and the colour science that checks
//! them: every game's pieces must stay apart for people with colour-vision deficiency (issue 27).
//!
//! A pair of colours "stays apart" when its CIEDE2000 difference is at least [`MIN_DISTANCE`]
//! under normal vision and after simulating protanopia, deuteranopia and tritanopia. [`CLASSIC`]
//! (the colours until issue 27) fails: Red and Green both come out olive under deuteranopia.
//! [`SAFE`] (the default) passes. Smallest ΔE00 per vision, as printed by
//! `rustc --edition 2024 --test src/app/palette.rs -o /tmp/palette_test && /tmp/palette_test --nocapture`:
//!
//! | set (pair nearest under the vision)       | Normal | Protanopia | Deuteranopia | Tritanopia |
//! |--------------------------------------------|-------:|-----------:|-------------:|-----------:|
//! | CLASSIC Trigon's four                      |   34.7 |       13.7 |          5.3 |       15.5 |
//! | CLASSIC four + empty cell + hint + mistake |   12.4 |        9.3 |          5.3 |        9.7 |
//! | CLASSIC two + empty cell + hint + mistake  |   14.1 |       15.7 |         13.1 |       11.2 |
//! | SAFE Trigon's four                         |   42.7 |       23.5 |         22.2 |       22.1 |
//! | SAFE four + empty cell + hint + mistake    |   25.7 |       22.2 |         22.2 |       21.5 |
//! | SAFE two + empty cell + hint + mistake     |   27.4 |       25.5 |         27.2 |       22.7 |
//!
//! In Trike and TriCore (Black, White, Trike's cell, red pawn and green highlights), SAFE's blue
//! hint #0040c0 stays 24.3 from every one of them and from the mistake, the mistake 22.7.
//!
//! The nearest pairs: CLASSIC's four, Yellow/Green for normal vision and protanopia, Red/Green for
//! deuteranopia, Blue/Green for tritanopia; with its marks, the salmon mistake on Red or Green.
//! SAFE's, with the marks: Yellow/empty cell (normal, tritanopia), Green/empty cell (protanopia),
//! Red/Green (deuteranopia); in the two-player games, Blue/violet mistake and mistake/empty cell.
//!
//! Everything is std only, so this file also builds and tests on its own with the command above.

/// sRGB bytes, `[r, g, b]`.
pub type Rgb = [u8; 3];

/// The colours of one look of the app, as sRGB bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Palette {
    /// Trigon's colours in play order: Blue, Yellow, Red, Green.
    pub trigon: [Rgb; 4],
    /// Tri-It-Out's and Trisq's colours: the first player's (Red), then the second's (Blue).
    pub two: [Rgb; 2],
    /// A hint's mark on the board (drawn as a solid outline over a 45 % fill).
    pub hint: Rgb,
    /// The hint's mark in the games whose players are Black and White (Trike, TriCore), where
    /// black ink would be a player's colour.
    pub hint_black_and_white: Rgb,
    /// The analysis's better move where the move played was a mistake, in review.
    pub mistake: Rgb,
}

/// The colours until issue 27: Trigon's from its art, Tri-It-Out's and Trisq's fills (the same
/// in both), the boards' light blue hint and `ui::MISTAKE`'s salmon.
pub const CLASSIC: Palette = Palette {
    trigon: [[0x2f, 0x6f, 0xd8], [0xe9, 0xbe, 0x22], [0xd9, 0x3f, 0x37], [0x2f, 0xa5, 0x4a]],
    two: [[0xd2, 0x3c, 0x32], [0x2f, 0x6f, 0xd0]],
    hint: [0x5a, 0xb4, 0xff],
    hint_black_and_white: [0x5a, 0xb4, 0xff],
    mistake: [0xff, 0x6a, 0x5a],
};

/// The colour-blind-safe default. The four start from Okabe & Ito's Colour Universal Design set
/// (2002) and are tuned against the checks in the tests: Blue #3c4aa3 is darker and more violet
/// than their #0072b2 (it and Green both turn teal under tritanopia; lightness keeps them
/// apart), Yellow #e8aa00 is a deeper gold than #f0e442 (a pale yellow vanishes into the pale
/// board under tritanopia), Red #c81a14 is a true red rather than vermillion (the game calls it
/// Red) and dark enough to stay apart from Green under deuteranopia, Green #009374 keeps the
/// bluish green's blue that lifts it off Red and Yellow for protans and deutans. Tri-It-Out and
/// Trisq use the same Red and Blue. No player is neutral or violet, so the hint is black ink
/// #1a1a1a (the same for every vision, far below every piece's lightness) and the mistake is
/// violet #a080ff (CLASSIC's salmon mistake is 12.4 from Red even for normal vision).
pub const SAFE: Palette = Palette {
    trigon: [[0x3c, 0x4a, 0xa3], [0xe8, 0xaa, 0x00], [0xc8, 0x1a, 0x14], [0x00, 0x93, 0x74]],
    two: [[0xc8, 0x1a, 0x14], [0x3c, 0x4a, 0xa3]],
    hint: [0x1a, 0x1a, 0x1a],
    hint_black_and_white: [0x00, 0x40, 0xc0],
    mistake: [0xa0, 0x80, 0xff],
};

impl Default for Palette {
    fn default() -> Self {
        SAFE
    }
}

/// The palette in use is [`CLASSIC`] (else [`SAFE`]); the settings page sets it.
static CLASSIC_IN_USE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The palette in use: [`SAFE`] unless the settings page chose [`CLASSIC`]. Views read it when
/// they colour a piece or a mark; a change repaints them (`app::settings_page`).
pub fn current() -> &'static Palette {
    if CLASSIC_IN_USE.load(std::sync::atomic::Ordering::Relaxed) { &CLASSIC } else { &SAFE }
}

/// The colour of a mistake (the move played, in review; its mark in the graph and the move list),
/// in the palette in use.
pub fn mistake() -> bevy_egui::egui::Color32 {
    let [r, g, b] = current().mistake;
    bevy_egui::egui::Color32::from_rgb(r, g, b)
}

/// Makes [`CLASSIC`] (`true`) or [`SAFE`] the palette in use.
pub fn use_classic(classic: bool) {
    CLASSIC_IN_USE.store(classic, std::sync::atomic::Ordering::Relaxed);
}

/// The first (`0`, Red) or second (`1`, Blue) player's fill in Tri-It-Out and Trisq, in the
/// palette in use.
pub fn two_fill(colour: usize) -> Rgb {
    current().two[colour]
}

/// [`two_fill`]'s outline: darker by half.
pub fn two_outline(colour: usize) -> Rgb {
    shade(two_fill(colour), -0.5)
}

/// [`two_fill`] lightened, for a piece of the turn still in progress (Trisq).
pub fn two_fresh(colour: usize) -> Rgb {
    shade(two_fill(colour), 0.45)
}

/// Trike's and TriCore's board colours that their hint and the mistake must stand apart from:
/// Black's and White's pieces, Trike's empty cell, its red pawn, and its legal and hovered cells'
/// greens.
pub const BLACK_AND_WHITE: [Rgb; 6] = [
    [0x1f, 0x1f, 0x24],
    [0xf7, 0xf5, 0xef],
    [0xd9, 0xc3, 0x9a],
    [0xd6, 0x2f, 0x2f],
    [0xc6, 0xd9, 0x9b],
    [0x8f, 0xc7, 0x6b],
];

/// The smallest ΔE00 between `colour` and any of `others`, under any [`Vision`].
pub fn apart(colour: Rgb, others: &[Rgb]) -> f32 {
    let mut least = f64::MAX;
    for &other in others {
        for vision in Vision::ALL {
            least = least.min(distance(colour, other, vision));
        }
    }
    least as f32
}

/// Trigon's empty cell: every colour above must stand apart from it too.
pub const EMPTY_CELL: Rgb = [0xdc, 0xd6, 0xc8];

/// The smallest CIEDE2000 difference (ΔE00) two colours of a palette may have under any
/// [`Vision`]. ΔE00 ≈ 1 is a just-noticeable difference side by side; pieces must be told apart at
/// a glance across the board, in small triangles and discs, so far more is needed. 20 lies above
/// every confusion of [`CLASSIC`] (Red/Green 5.3 under deuteranopia, the "both olive" of issue 27,
/// Yellow/Green 13.7 under protanopia, Blue/Green 15.5 under tritanopia) and below the smallest
/// normal-vision difference of `CLASSIC` nobody has found hard (Yellow on the empty cell, 24.1).
pub const MIN_DISTANCE: f32 = 20.0;

/// `rgb` moved towards white by `t` (`0..=1`) or towards black by `-t` (`t < 0`), in sRGB bytes,
/// as Trigon's art shades its colours: its outlines are `shade(c, -0.45)`, its attach points
/// `shade(c, 0.55)`.
pub fn shade(rgb: Rgb, t: f32) -> Rgb {
    rgb.map(|v| {
        let v = v as f32;
        let out = if t >= 0.0 { v + (255.0 - v) * t } else { v * (1.0 + t) };
        out.round().clamp(0.0, 255.0) as u8
    })
}

/// An sRGB byte to linear light in `0..=1`: the sRGB decoding function of IEC 61966-2-1:1999.
pub fn linear(v: u8) -> f64 {
    let c = v as f64 / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// Linear light (clamped to `0..=1`) to the nearest sRGB byte: the inverse of [`linear`].
pub fn encode(c: f64) -> u8 {
    let c = c.clamp(0.0, 1.0);
    let v = if c <= 0.0031308 { c * 12.92 } else { 1.055 * c.powf(1.0 / 2.4) - 0.055 };
    (v * 255.0).round() as u8
}

/// Linear sRGB to CIE XYZ (Y of white = 1, white point D65): IEC 61966-2-1:1999.
const RGB_TO_XYZ: [[f64; 3]; 3] = [[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]];

/// The matrix `m` times the column `v`.
fn mul(m: &[[f64; 3]; 3], v: [f64; 3]) -> [f64; 3] {
    m.map(|row| row[0] * v[0] + row[1] * v[1] + row[2] * v[2])
}

/// Linear RGB (`0..=1`) to CIELAB `[L*, a*, b*]` (L* in `0..=100`), through CIE XYZ, relative to
/// the D65 white of sRGB (the XYZ of RGB 1, 1, 1): CIE 15:2004, *Colorimetry*, §8.2.1.
pub fn lab(rgb: [f64; 3]) -> [f64; 3] {
    let [x, y, z] = mul(&RGB_TO_XYZ, rgb);
    let [xn, yn, zn] = mul(&RGB_TO_XYZ, [1.0; 3]);
    let d: f64 = 6.0 / 29.0;
    let f = |t: f64| if t > d * d * d { t.cbrt() } else { t / (3.0 * d * d) + 4.0 / 29.0 };
    let (fx, fy, fz) = (f(x / xn), f(y / yn), f(z / zn));
    [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
}

/// A way of seeing colour: normal trichromacy or a full dichromacy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vision {
    Normal,
    /// No long-wavelength (L, "red") cones.
    Protanopia,
    /// No medium-wavelength (M, "green") cones.
    Deuteranopia,
    /// No short-wavelength (S, "blue") cones.
    Tritanopia,
}

impl Vision {
    /// Every vision, normal first.
    pub const ALL: [Vision; 4] = [Vision::Normal, Vision::Protanopia, Vision::Deuteranopia, Vision::Tritanopia];

    /// The simulation matrix on linear RGB at severity 1.0: Machado, Oliveira & Fernandes, "A
    /// Physiologically-based Model for Simulation of Color Vision Deficiency", IEEE TVCG 15(6),
    /// 2009 (the precomputed matrices the authors published with it). Each row sums to 1, so greys stay
    /// grey. The authors note the model is least certain for tritanopia.
    pub fn matrix(self) -> [[f64; 3]; 3] {
        match self {
            Vision::Normal => [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
            Vision::Protanopia => {
                [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
            }
            Vision::Deuteranopia => {
                [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
            }
            Vision::Tritanopia => {
                [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
            }
        }
    }
}

/// How `rgb` looks under `vision`, as linear RGB clamped to `0..=1` (the matrix of
/// [`Vision::matrix`] applied to the linearised colour).
pub fn simulate(rgb: Rgb, vision: Vision) -> [f64; 3] {
    mul(&vision.matrix(), rgb.map(linear)).map(|c| c.clamp(0.0, 1.0))
}

/// The CIEDE2000 colour difference ΔE00 between two CIELAB colours (kL = kC = kH = 1), by
/// equations (1)–(22) of Sharma, Wu & Dalal, "The CIEDE2000 Color-Difference Formula:
/// Implementation Notes, Supplementary Test Data, and Mathematical Observations", Color Research
/// & Application 30(1), 2005. Hues are in degrees.
pub fn ciede2000(lab1: [f64; 3], lab2: [f64; 3]) -> f64 {
    let ([l1, a1, b1], [l2, a2, b2]) = (lab1, lab2);
    let (sin, cos) = (|deg: f64| deg.to_radians().sin(), |deg: f64| deg.to_radians().cos());
    let g_of = |c: f64| (c.powi(7) / (c.powi(7) + 25f64.powi(7))).sqrt();
    // (2)–(7): a′ stretched by G, then C′ and h′ (0..360; 0 where a′ = b′ = 0).
    let g = 0.5 * (1.0 - g_of((a1.hypot(b1) + a2.hypot(b2)) / 2.0));
    let (a1, a2) = ((1.0 + g) * a1, (1.0 + g) * a2);
    let (c1, c2) = (a1.hypot(b1), a2.hypot(b2));
    let hue = |b: f64, a: f64| if a == 0.0 && b == 0.0 { 0.0 } else { b.atan2(a).to_degrees().rem_euclid(360.0) };
    let (h1, h2) = (hue(b1, a1), hue(b2, a2));
    // (8)–(11): ΔL′, ΔC′, Δh′ (the shorter way round) and ΔH′.
    let dh = match h2 - h1 {
        _ if c1 * c2 == 0.0 => 0.0,
        d if d > 180.0 => d - 360.0,
        d if d < -180.0 => d + 360.0,
        d => d,
    };
    let (dl, dc, dh) = (l2 - l1, c2 - c1, 2.0 * (c1 * c2).sqrt() * sin(dh / 2.0));
    // (12)–(22): the means, the weighting functions and the rotation term.
    let (l, c) = ((l1 + l2) / 2.0, (c1 + c2) / 2.0);
    let h = match h1 + h2 {
        sum if c1 * c2 == 0.0 => sum,
        sum if (h1 - h2).abs() <= 180.0 => sum / 2.0,
        sum if sum < 360.0 => (sum + 360.0) / 2.0,
        sum => (sum - 360.0) / 2.0,
    };
    let t = 1.0 - 0.17 * cos(h - 30.0) + 0.24 * cos(2.0 * h) + 0.32 * cos(3.0 * h + 6.0) - 0.20 * cos(4.0 * h - 63.0);
    let d_theta = 30.0 * (-((h - 275.0) / 25.0).powi(2)).exp();
    let r_t = -sin(2.0 * d_theta) * 2.0 * g_of(c);
    let s_l = 1.0 + 0.015 * (l - 50.0).powi(2) / (20.0 + (l - 50.0).powi(2)).sqrt();
    let (s_c, s_h) = (1.0 + 0.045 * c, 1.0 + 0.015 * c * t);
    let (dl, dc, dh) = (dl / s_l, dc / s_c, dh / s_h);
    (dl * dl + dc * dc + dh * dh + r_t * dc * dh).sqrt()
}

/// ΔE00 between two sRGB colours as seen under `vision`.
pub fn distance(x: Rgb, y: Rgb, vision: Vision) -> f64 {
    ciede2000(lab(simulate(x, vision)), lab(simulate(y, vision)))
}

/// The smallest ΔE00 between two of `colours` under `vision`, and the pair's indices
/// (`INFINITY` for fewer than two colours).
pub fn min_distance_under(colours: &[Rgb], vision: Vision) -> (f32, usize, usize) {
    let mut best = (f32::INFINITY, 0, 0);
    for i in 0..colours.len() {
        for j in i + 1..colours.len() {
            let d = distance(colours[i], colours[j], vision) as f32;
            if d < best.0 {
                best = (d, i, j);
            }
        }
    }
    best
}

/// The smallest ΔE00 between two of `colours` under any [`Vision`], with that vision and the
/// pair's indices.
pub fn min_distance(colours: &[Rgb]) -> (f32, Vision, usize, usize) {
    let mut best = (f32::INFINITY, Vision::Normal, 0, 0);
    for vision in Vision::ALL {
        let (d, i, j) = min_distance_under(colours, vision);
        if d < best.0 {
            best = (d, vision, i, j);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sharma, Wu & Dalal (2005), Table 1: pairs (L*, a*, b*) and ΔE00 to 4 decimals.
    const SHARMA: [([f64; 3], [f64; 3], f64); 20] = [
        ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
        ([50.0, 3.1571, -77.2803], [50.0, 0.0, -82.7485], 2.8615),
        ([50.0, 2.8361, -74.0200], [50.0, 0.0, -82.7485], 3.4412),
        ([50.0, -1.3802, -84.2814], [50.0, 0.0, -82.7485], 1.0000),
        ([50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669),
        ([50.0, 2.4900, -0.0010], [50.0, -2.4900, 0.0009], 7.1792),
        ([50.0, 2.4900, -0.0010], [50.0, -2.4900, 0.0011], 7.2195),
        ([50.0, -0.0010, 2.4900], [50.0, 0.0009, -2.4900], 4.8045),
        ([50.0, -0.0010, 2.4900], [50.0, 0.0011, -2.4900], 4.7461),
        ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
        ([50.0, 2.5, 0.0], [61.0, -5.0, 29.0], 22.8977),
        ([50.0, 2.5, 0.0], [56.0, -27.0, -3.0], 31.9030),
        ([50.0, 2.5, 0.0], [58.0, 24.0, 15.0], 19.4535),
        ([50.0, 2.5, 0.0], [50.0, 3.1736, 0.5854], 1.0000),
        ([60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644),
        ([63.0109, -31.0961, -5.8663], [62.8187, -29.7946, -4.0864], 1.2630),
        ([35.0831, -44.1164, 3.7933], [35.0232, -40.0716, 1.5901], 1.8645),
        ([22.7233, 20.0904, -46.6940], [23.0331, 14.9730, -42.5619], 2.0373),
        ([90.9257, -0.5406, -0.9208], [88.6381, -0.8985, -0.7239], 1.5381),
        ([2.0776, 0.0795, -1.1350], [0.9033, -0.0636, -0.5514], 0.9082),
    ];

    #[test]
    fn ciede2000_matches_sharma() {
        for (x, y, want) in SHARMA {
            for got in [ciede2000(x, y), ciede2000(y, x)] {
                assert!((got - want).abs() < 5e-5, "{x:?} {y:?}: {got:.4}, not {want}");
            }
        }
    }

    #[test]
    fn srgb_and_lab() {
        assert!((0..=255).all(|v| encode(linear(v)) == v));
        let [l, a, b] = lab([1.0; 3]);
        assert!((l - 100.0).abs() < 1e-9 && a.abs() < 1e-9 && b.abs() < 1e-9);
        // sRGB red, #ff0000: L* 53.24, a* 80.09, b* 67.20 in the usual tables.
        let [l, a, b] = lab(simulate([255, 0, 0], Vision::Normal));
        assert!((l - 53.24).abs() < 0.05 && (a - 80.09).abs() < 0.1 && (b - 67.20).abs() < 0.1, "{l} {a} {b}");
    }

    #[test]
    fn greys_stay_grey() {
        for v in Vision::ALL {
            for g in [0u8, 40, 128, 200, 255] {
                let [r, gg, b] = simulate([g; 3], v);
                let want = linear(g);
                assert!([r, gg, b].iter().all(|c| (c - want).abs() < 1e-5), "{v:?} {g}: {r} {gg} {b}");
            }
        }
    }

    #[test]
    fn classic_red_and_green_are_olive_for_deutans() {
        let [_, _, red, green] = CLASSIC.trigon;
        assert!(distance(red, green, Vision::Normal) > 30.0);
        assert!(distance(red, green, Vision::Deuteranopia) < 8.0);
        let (d, v, i, j) = min_distance(&CLASSIC.trigon);
        assert!(d < MIN_DISTANCE && (v, i, j) == (Vision::Deuteranopia, 2, 3), "{d} {v:?} {i} {j}");
    }

    /// The colours a board of `players` shows at once: theirs, the empty cell, hint and mistake.
    fn on_board(players: &[Rgb], p: &Palette) -> Vec<Rgb> {
        [players, &[EMPTY_CELL, p.hint, p.mistake]].concat()
    }

    #[test]
    fn safe_passes() {
        let sets = [SAFE.trigon.to_vec(), on_board(&SAFE.trigon, &SAFE), on_board(&SAFE.two, &SAFE)];
        for set in sets {
            let (d, v, i, j) = min_distance(&set);
            assert!(d >= MIN_DISTANCE, "{d} under {v:?} between {:?} and {:?}", set[i], set[j]);
        }
        assert_eq!(SAFE.two, [SAFE.trigon[2], SAFE.trigon[0]], "Red and Blue as in Trigon");
        // Trike and TriCore: their hint and the mistake, on their board.
        let mut board = BLACK_AND_WHITE.to_vec();
        board.push(SAFE.mistake);
        assert!(apart(SAFE.hint_black_and_white, &board) >= MIN_DISTANCE);
        assert!(apart(SAFE.mistake, &BLACK_AND_WHITE) >= MIN_DISTANCE);
        assert_eq!(Palette::default(), SAFE);
    }

    #[test]
    fn classic_fails() {
        assert!(min_distance(&CLASSIC.trigon).0 < MIN_DISTANCE);
        // The salmon mistake is too near Red even for normal vision.
        assert!(distance(CLASSIC.mistake, CLASSIC.two[0], Vision::Normal) < MIN_DISTANCE as f64);
    }

    /// The table of the module comment (run with `--nocapture`).
    #[test]
    fn print_table() {
        let hex = |c: Rgb| format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]);
        let rows = [
            ("CLASSIC Trigon's four", CLASSIC.trigon.to_vec()),
            ("CLASSIC four + empty cell + hint + mistake", on_board(&CLASSIC.trigon, &CLASSIC)),
            ("CLASSIC two + empty cell + hint + mistake", on_board(&CLASSIC.two, &CLASSIC)),
            ("SAFE Trigon's four", SAFE.trigon.to_vec()),
            ("SAFE four + empty cell + hint + mistake", on_board(&SAFE.trigon, &SAFE)),
            ("SAFE two + empty cell + hint + mistake", on_board(&SAFE.two, &SAFE)),
        ];
        let mut out = format!("min ΔE00 (threshold {MIN_DISTANCE}); columns {:?}\n", Vision::ALL);
        for (name, set) in rows {
            let cells = Vision::ALL.map(|v| {
                let (d, i, j) = min_distance_under(&set, v);
                format!("{d:5.1} {}/{}", hex(set[i]), hex(set[j]))
            });
            out += &format!("{name:44} {}\n", cells.join(" | "));
        }
        print!("{out}");
    }
}
