//! The keyboard and the clipboard for egui: each key message becomes egui's events with the
//! modifiers held at that key ([`key_events`]), Ctrl+C / Ctrl+X / Ctrl+V (Cmd on a Mac) copy, cut
//! and paste with the system's clipboard (bevy_egui's `manage_clipboard`: arboard on the desktop,
//! the page's clipboard events in the browser), and a text field's context menu offers Paste
//! ([`paste_menu`]).
//!
//! bevy_egui's own keyboard system reads the modifiers as they stand at the end of the frame, so a
//! quick Ctrl+A whose four key messages (Ctrl down, A down, A up, Ctrl up) arrive in one frame
//! typed the letter "a" into the field; this one replaces it and follows the messages in order.

use super::ui::UiRects;
use bevy::input::keyboard::{Key, KeyboardFocusLost, KeyboardInput};
use bevy::prelude::*;
use bevy_egui::input::{EguiInputEvent, ModifierKeysState};
use bevy_egui::{EguiContext, EguiGlobalSettings, EguiInputSet, EguiPreUpdateSet, PrimaryEguiContext, egui};

/// Where a text field's context menu leaves its Paste, for the next frame's keyboard system.
const PASTE_ASKED: &str = "triboard paste asked";

/// Feeds egui the keyboard in place of bevy_egui's system (turned off here).
pub(super) fn plugin(app: &mut App) {
    let mut settings = app.world_mut().get_resource_or_insert_with(EguiGlobalSettings::default);
    settings.input_system_settings.run_write_keyboard_input_messages_system = false;
    app.add_systems(PreUpdate, feed_keys.in_set(EguiPreUpdateSet::ProcessInput).in_set(EguiInputSet::ReadBevyMessages));
}

/// The egui events of one key message, after the modifiers it changes (`held`): the text it types
/// (none while Ctrl or Cmd is held, so a chord never types its letter; Ctrl+Alt is AltGr outside
/// a Mac and types), the key itself with the modifiers held, and for Ctrl+C, Ctrl+X and Ctrl+V
/// (Cmd on a Mac) Copy, Cut and Paste, the pasted text from `clipboard` (asked only then).
pub fn key_events(
    held: &mut ModifierKeysState,
    message: &KeyboardInput,
    clipboard: impl FnOnce() -> Option<String>,
) -> Vec<egui::Event> {
    let pressed = message.state.is_pressed();
    match message.logical_key {
        Key::Shift => held.shift = pressed,
        Key::Control => held.ctrl = pressed,
        Key::Alt => held.alt = pressed,
        Key::Super | Key::Meta => held.win = pressed,
        _ => {}
    }
    let mut events = Vec::new();
    if pressed && held.text_input_is_allowed() {
        match &message.logical_key {
            Key::Character(text) if !text.chars().any(char::is_control) => {
                events.push(egui::Event::Text(text.to_string()));
            }
            Key::Space => events.push(egui::Event::Text(" ".to_string())),
            _ => {}
        }
    }
    let key = bevy_egui::helpers::bevy_to_egui_key(&message.logical_key);
    let physical_key = bevy_egui::helpers::bevy_to_egui_physical_key(&message.key_code);
    let Some(key) = key.or(physical_key) else { return events };
    let modifiers = held.to_egui_modifiers();
    events.push(egui::Event::Key { key, physical_key, pressed, repeat: false, modifiers });
    if pressed && modifiers.command {
        match key {
            egui::Key::C => events.push(egui::Event::Copy),
            egui::Key::X => events.push(egui::Event::Cut),
            // In the browser the page's own paste event brings the text (bevy_egui's listener).
            egui::Key::V if !cfg!(target_arch = "wasm32") => {
                if let Some(text) = clipboard() {
                    events.push(egui::Event::Paste(text));
                }
            }
            _ => {}
        }
    }
    events
}

/// A text field's context menu (a secondary press on it): Paste (named `paste` in `rects`), the
/// system's clipboard at the field's cursor (on the next frame, [`paste_asked`]). In the browser,
/// where the page may not read the clipboard unasked, it says to use Ctrl+V.
pub fn paste_menu(field: &egui::Response, rects: &mut UiRects) {
    field.context_menu(|ui| {
        if cfg!(target_arch = "wasm32") {
            ui.label("Paste with Ctrl+V (Cmd+V on a Mac)");
            return;
        }
        let paste = ui.button("Paste");
        rects.set("paste", paste.rect);
        if paste.clicked() {
            field.request_focus();
            ui.ctx().data_mut(|d| d.insert_temp(egui::Id::new(PASTE_ASKED), true));
            ui.close();
        }
    });
}

/// True once after a context menu's Paste ([`paste_menu`]): the keyboard system then sends the
/// clipboard's text as egui's `Paste` to the field that asked (it has the focus).
pub fn paste_asked(ctx: &egui::Context) -> bool {
    ctx.data_mut(|d| d.remove_temp::<bool>(egui::Id::new(PASTE_ASKED))).unwrap_or(false)
}

/// The key messages of this frame, in order, to the primary egui context, with a context menu's
/// Paste asked last frame.
fn feed_keys(
    mut held: Local<ModifierKeysState>,
    mut keys: MessageReader<KeyboardInput>,
    mut focus_lost: MessageReader<KeyboardFocusLost>,
    mut contexts: Query<(Entity, &mut EguiContext), With<PrimaryEguiContext>>,
    mut clipboard: ResMut<bevy_egui::EguiClipboard>,
    mut out: MessageWriter<EguiInputEvent>,
) {
    // Keys let go while the window was away must not stay held.
    if focus_lost.read().count() > 0 {
        (held.shift, held.ctrl, held.alt, held.win) = (false, false, false, false);
    }
    let Ok((context, mut egui_context)) = contexts.single_mut() else {
        keys.clear();
        return;
    };
    for message in keys.read() {
        for event in key_events(&mut held, message, || clipboard.get_text()) {
            out.write(EguiInputEvent { context, event });
        }
    }
    if paste_asked(egui_context.get_mut())
        && let Some(text) = clipboard.get_text()
    {
        out.write(EguiInputEvent { context, event: egui::Event::Paste(text) });
    }
}
