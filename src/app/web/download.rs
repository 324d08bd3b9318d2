//! Files out of the browser: the side panel's Download and Upload buttons ([`file_buttons`]), and
//! a record offered as a download ([`download_record`]: a finished game from a player's page).

use bevy_egui::egui;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::file_input;
use super::page::window;
use crate::app::files;
use crate::app::flow::Status;
use crate::app::games::AppGame;
use crate::app::model::Model;
use crate::app::share;
use crate::app::ui::UiRects;
use crate::rules::record::Record;

/// The browser's extra buttons in the side panel: Download and Upload the record as a file, and
/// copy the share link.
pub(crate) fn file_buttons<G: AppGame>(ui: &mut egui::Ui, model: &Model<G>, status: &mut Status, rects: &mut UiRects) {
    // Wrapped: four buttons do not fit one row of a narrow panel.
    ui.horizontal_wrapped(|ui| {
        let download_button = ui.button("Download").on_hover_text("Save the game as a JSON file");
        rects.set("download", download_button.rect);
        if download_button.clicked() {
            let record = model.record();
            *status = match download(&files::new_name_as(&record, files::Format::Json, |_| false), &record.to_json()) {
                Ok(()) => Status::info("Downloaded the game"),
                Err(e) => Status::error(e),
            };
        }
        if G::INFO.sgf && ui.button("Download .blksgf").on_hover_text("Save in Pentobi's format").clicked() {
            let record = model.record();
            *status = match files::Format::Sgf
                .text(&record)
                .and_then(|text| download(&files::new_name_as(&record, files::Format::Sgf, |_| false), &text))
            {
                Ok(()) => Status::info("Downloaded the game"),
                Err(e) => Status::error(e),
            };
        }
        let upload_button = ui.button("Upload…").on_hover_text("Load a game from a JSON or .blksgf file");
        rects.set("upload", upload_button.rect);
        if upload_button.clicked()
            && let Err(e) = file_input::upload()
        {
            *status = Status::error(e);
        }
        if ui.button("Share link").on_hover_text("Copy a link that opens this game at this move").clicked() {
            let location = window().location();
            let link = format!(
                "{}{}{}",
                location.origin().unwrap_or_default(),
                location.pathname().unwrap_or_default(),
                share::fragment(&model.record())
            );
            let _ = window().navigator().clipboard().write_text(&link);
            *status = Status::info("Link copied — the address bar holds it too");
        }
    });
}

/// Offers `text` as a file download named `name`.
fn download(name: &str, text: &str) -> Result<(), String> {
    let fail = |_| "the browser refused the download".to_string();
    let document = window().document().ok_or("no document")?;
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let anchor: web_sys::HtmlAnchorElement = document.create_element("a").map_err(fail)?.unchecked_into();
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// Offers `record` in `format` as a file download; returns what the person is told.
///
/// # Errors
/// SGF of a game other than Trigon, or the browser refused.
pub(crate) fn download_record(record: &Record, format: files::Format) -> Result<String, String> {
    let name = files::new_name_as(record, format, |_| false);
    download(&name, &format.text(record)?)?;
    Ok(format!("a download, {name}"))
}
