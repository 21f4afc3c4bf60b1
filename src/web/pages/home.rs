use actix_web::HttpResponse;
use askama::Template;

use crate::web::page::{render, PageCtx};
use crate::web::AppError;

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage {
    ctx: PageCtx,
}

pub async fn home(ctx: PageCtx) -> Result<HttpResponse, AppError> {
    render(&HomePage { ctx })
}
