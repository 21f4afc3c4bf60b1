//! What the paged lists share (rosters, battles, campaigns): a search for part of a text
//! column in any case, with the search's `%` and `_` taken as themselves, and a page's rows.

diesel::define_sql_function!(
    /// SQL `lower()`, which both backends have.
    fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text
);

/// The `LIKE` pattern (escape character `\`) that finds `search` anywhere in a column compared
/// through `lower()`: lowercased, with the wildcards a user may type escaped.
pub fn contains_pattern(search: &str) -> String {
    let escaped: String = search
        .to_lowercase()
        .chars()
        .flat_map(|c| match c {
            '%' | '_' | '\\' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    format!("%{escaped}%")
}

/// The search of a list's query, if it has one: trimmed, and nothing for blank.
pub fn search_text(search: Option<&str>) -> Option<&str> {
    search.map(str::trim).filter(|s| !s.is_empty())
}

/// The `LIKE` pattern of a list's search ([`contains_pattern`]), or nothing for no search.
pub fn search_pattern(search: Option<&str>) -> Option<String> {
    search_text(search).map(contains_pattern)
}

/// How a list is cut: a search, an order (each list has its own) and a page.
#[derive(Debug, Clone, Default)]
pub struct ListingQuery<O> {
    /// Part of the listed thing's name or title, any case.
    pub search: Option<String>,
    pub order: O,
    /// From 0.
    pub page: i64,
    pub per_page: i64,
}

/// `LIMIT` and `OFFSET` of page `page` (from 0); a page of fewer than one row is one row, and a
/// page before the first is the first.
pub fn limit_offset(page: i64, per_page: i64) -> (i64, i64) {
    let per_page = per_page.max(1);
    (per_page, page.max(0).saturating_mul(per_page))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_in_a_search_are_taken_literally() {
        assert_eq!(contains_pattern("Brandy"), "%brandy%");
        assert_eq!(contains_pattern("50%_off\\"), "%50\\%\\_off\\\\%");
    }

    #[test]
    fn a_page_never_starts_before_the_first_row() {
        assert_eq!(limit_offset(0, 50), (50, 0));
        assert_eq!(limit_offset(2, 50), (50, 100));
        assert_eq!(limit_offset(-3, 0), (1, 0));
        assert_eq!(limit_offset(i64::MAX, 50).1, i64::MAX);
    }
}
