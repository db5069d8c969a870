//! `GET /api/lessons`.

use crate::learning::lessons::{LessonBook, LevelProgressView};
use serde::Serialize;
use std::collections::HashMap;

/// The book and the asker's progress.
#[derive(Serialize, Clone, Debug, PartialEq, ts_rs::TS)]
pub struct LessonsView {
    /// Every stage and level.
    pub book: &'static LessonBook,
    /// The asker's best, by level id (levels not completed are absent).
    pub progress: HashMap<String, LevelProgressView>,
}
