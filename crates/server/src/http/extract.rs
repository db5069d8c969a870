//! Extractors whose rejections are [`AppError`]s, so that a malformed
//! request is answered in JSON like every other error.

use crate::error::AppError;
use crate::ids::{GameId, TournamentId};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// `axum::Json` whose rejections are [`AppError`]s (JSON bodies, never plain text).
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let axum::Json(v) = axum::Json::<T>::from_request(req, state).await?;
        Ok(ApiJson(v))
    }
}

/// `axum::extract::Query` with [`AppError`] rejections.
pub struct ApiQuery<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let axum::extract::Query(v) =
            axum::extract::Query::<T>::from_request_parts(parts, state).await?;
        Ok(ApiQuery(v))
    }
}

/// `axum::extract::Path` with [`AppError`] rejections.
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let axum::extract::Path(v) =
            axum::extract::Path::<T>::from_request_parts(parts, state).await?;
        Ok(ApiPath(v))
    }
}

/// A path that names a game or a tournament by its id, checked here: an id
/// that cannot be one names nothing (404, as an unknown id does); any other
/// malformed part is a 400 ([`ApiPath`]).
pub struct IdPath<T>(pub T);

/// What an [`IdPath`] reads: the path's parts as text, then checked.
pub trait PathWithId: Sized {
    /// The path's parameters as text.
    type Raw: DeserializeOwned + Send;
    /// The checked value, or the 404 of an id that names nothing.
    fn check(raw: Self::Raw) -> Result<Self, AppError>;
}

impl PathWithId for GameId {
    type Raw = String;

    fn check(raw: String) -> Result<GameId, AppError> {
        GameId::parse(&raw).ok_or_else(|| AppError::NotFound("There is no such game".into()))
    }
}

impl PathWithId for TournamentId {
    type Raw = String;

    fn check(raw: String) -> Result<TournamentId, AppError> {
        TournamentId::parse(&raw)
            .ok_or_else(|| AppError::NotFound("There is no such tournament".into()))
    }
}

impl PathWithId for (GameId, String) {
    type Raw = (String, String);

    fn check((id, rest): (String, String)) -> Result<Self, AppError> {
        Ok((GameId::check(id)?, rest))
    }
}

impl PathWithId for (TournamentId, String) {
    type Raw = (String, String);

    fn check((id, rest): (String, String)) -> Result<Self, AppError> {
        Ok((TournamentId::check(id)?, rest))
    }
}

impl PathWithId for (TournamentId, u32) {
    type Raw = (String, u32);

    fn check((id, n): (String, u32)) -> Result<Self, AppError> {
        Ok((TournamentId::check(id)?, n))
    }
}

impl<T, S> FromRequestParts<S> for IdPath<T>
where
    T: PathWithId,
    S: Send + Sync,
{
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let ApiPath(raw) = ApiPath::<T::Raw>::from_request_parts(parts, state).await?;
        T::check(raw).map(IdPath)
    }
}
