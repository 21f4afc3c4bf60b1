//! Issue 18: forms start sensibly and a mistake never loses what was typed.

use crate::helpers::{spawn_app, PASSWORD};

/// The `value` of the option selected in `<select name="{name}">`.
fn selected(html: &str, name: &str) -> Option<String> {
    let start = html.find(&format!("name=\"{name}\""))?;
    let end = start + html[start..].find("</select>")?;
    let select = &html[start..end];
    let at = select.find(" selected")?;
    let before = &select[..at];
    let value = before.rfind("value=\"")? + "value=\"".len();
    Some(before[value..].split('"').next()?.to_string())
}

#[tokio::test]
async fn the_fight_forms_start_with_two_different_forces() {
    let app = spawn_app().await;
    app.register("general@example.org", "General", PASSWORD)
        .await;
    // No roster of one's own: the two sides of the first refight.
    let page = app.get_html("/lotf/fight").await;
    let (a, d) = (selected(&page, "attacker"), selected(&page, "defender"));
    assert!(a.is_some() && d.is_some() && a != d, "{a:?} against {d:?}");

    // With two rosters: one against the other, on both forms that set up a battle.
    for name in ["First", "Second"] {
        let res = app
            .post_form(
                "/rosters",
                "/rosters",
                &[
                    ("name", name),
                    ("system", "lotf"),
                    ("war", "american_revolution"),
                    ("nation", "british"),
                    ("points_limit", "150"),
                ],
            )
            .await;
        assert!(
            res.status().is_redirection(),
            "roster {name}: {}",
            res.status()
        );
    }
    let page = app.get_html("/lotf/fight").await;
    let (a, d) = (selected(&page, "attacker"), selected(&page, "defender"));
    assert!(a.as_deref().is_some_and(|v| v.starts_with("r:")), "{a:?}");
    assert!(d.as_deref().is_some_and(|v| v.starts_with("r:")), "{d:?}");
    assert_ne!(a, d, "two different rosters");
    let page = app.get_html("/battles").await;
    let (first, second) = (selected(&page, "first"), selected(&page, "second"));
    assert!(
        first.is_some() && first != second,
        "{first:?} against {second:?}"
    );
}

#[tokio::test]
async fn a_mistyped_invite_code_gives_the_form_back_with_the_code() {
    let app = spawn_app().await;
    app.register("player@example.org", "Player", PASSWORD).await;
    let res = app
        .post_form("/campaigns", "/campaigns/join", &[("code", "nope-1234")])
        .await;
    assert_eq!(res.status(), 422);
    let page = res.text().await.unwrap();
    assert!(
        page.contains("value=\"nope-1234\""),
        "the code as typed is kept"
    );
    assert!(
        page.contains("No campaign has the invite code “nope-1234”"),
        "says what is wrong"
    );
    assert!(
        page.contains("Start a campaign"),
        "the campaign list page, not an error page"
    );
}

#[tokio::test]
async fn an_import_that_is_not_a_roster_says_so_in_plain_words() {
    let app = spawn_app().await;
    app.register("importer@example.org", "Importer", PASSWORD)
        .await;
    for (document, expected) in [
        ("{\"hello\": 1}", "This is not a Muster roster file"),
        ("{}", "This is not a Muster roster file"),
        (
            "{\"format\": \"muster.lotf.roster/1\", \"name\": \"x\"}",
            "The roster has no “war”, which every roster needs.",
        ),
    ] {
        let res = app
            .post_form(
                "/rosters/import",
                "/rosters/import",
                &[("document", document)],
            )
            .await;
        assert_eq!(res.status(), 422, "{document}");
        let page = res.text().await.unwrap();
        assert!(page.contains(expected), "{document}: {page}");
        assert!(!page.contains("missing field"), "{document}");
    }
}
