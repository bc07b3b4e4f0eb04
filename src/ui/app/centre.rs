//! Rows centred in the width they are given, so that a screen's content sits in the middle of a wide window instead of against its left edge.

/// Lays `add` out left to right, `width` wide, centred. The width is the caller's
/// to know beforehand, so the row is in its place from the first frame: a click
/// aimed at a button lands on it.
pub(super) fn centred<R>(ui: &mut egui::Ui, width: f32, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    ui.horizontal_top(|ui| {
        ui.add_space(((ui.available_width() - width) / 2.0).max(0.0).floor());
        add(ui)
    })
    .inner
}

/// Lays `add` out left to right, centred by its width as last drawn: for a row of
/// text buttons whose width only drawing tells (egui lays a row out in one pass;
/// the width is steady from the second frame on). `salt` names the row among its
/// siblings.
pub(super) fn centred_as_drawn<R>(
    ui: &mut egui::Ui,
    salt: &'static str,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    let id = ui.id().with(("centred", salt));
    let width: f32 = ui.ctx().data(|d| d.get_temp(id)).unwrap_or(0.0);
    ui.horizontal(|ui| {
        ui.add_space(((ui.available_width() - width) / 2.0).max(0.0));
        let start = ui.cursor().min.x;
        let inner = add(ui);
        let drawn = ui.min_rect().right() - start;
        ui.ctx().data_mut(|d| d.insert_temp(id, drawn));
        inner
    })
    .inner
}
