//! What the paged lists share (rosters, battles, campaigns): their search, order and page read
//! from the query string, the links that keep them, and the pager.

use serde::Deserialize;

/// The longest search a list box takes; more is cut off rather than refused.
const SEARCH_CHARS: usize = 200;

/// A list's `q`, `sort` and `page` as they stand in the query string; each list page's own
/// query flattens it in beside its filters.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ListParams {
    /// Part of a name or title.
    pub q: Option<String>,
    /// One of the list's sorts.
    pub sort: Option<String>,
    /// From 1.
    pub page: Option<String>,
}

impl ListParams {
    /// The cut these ask of a list with these sorts (see [`ListCut::read`]).
    pub fn cut(&self, sorts: &[&'static str]) -> ListCut {
        ListCut::read(
            self.q.as_deref(),
            self.sort.as_deref(),
            self.page.as_deref(),
            sorts,
        )
    }
}

/// A list's search, order and page, as the query string gave them.
#[derive(Debug, Clone)]
pub struct ListCut {
    /// The search box's text: trimmed, at most 200 characters.
    pub search: String,
    /// One of the list's sorts.
    pub sort: &'static str,
    /// The list's own order, which links leave out.
    default_sort: &'static str,
    /// From 1.
    pub page: i64,
}

impl ListCut {
    /// The first page in the list's own order, unsearched: `sorts[0]` is that order.
    pub fn first_page(sorts: &[&'static str]) -> Self {
        let default_sort = sorts.first().copied().unwrap_or("");
        Self {
            search: String::new(),
            sort: default_sort,
            default_sort,
            page: 1,
        }
    }

    /// Reads a list's query. A sort the list does not have is its own order (`sorts[0]`), and a
    /// page that is not a whole number from 1 is the first page, so no query string fails.
    pub fn read(
        search: Option<&str>,
        sort: Option<&str>,
        page: Option<&str>,
        sorts: &[&'static str],
    ) -> Self {
        let first = Self::first_page(sorts);
        Self {
            search: search
                .unwrap_or("")
                .trim()
                .chars()
                .take(SEARCH_CHARS)
                .collect(),
            sort: sort
                .and_then(|s| sorts.iter().copied().find(|known| *known == s))
                .unwrap_or(first.sort),
            page: page
                .and_then(|p| p.trim().parse::<i64>().ok())
                .filter(|&p| p >= 1)
                .unwrap_or(1),
            ..first
        }
    }

    /// The search, if there is one.
    pub fn search(&self) -> Option<String> {
        Some(self.search.clone()).filter(|s| !s.is_empty())
    }

    /// Whether the list is in its own order (the sort control need not be sent again).
    pub fn is_default_sort(&self) -> bool {
        self.sort == self.default_sort
    }

    /// The list at `path` with `filters` (those with a value) and this search kept, in `sort`
    /// at `page`; the list's own order and the first page are left out of the address.
    pub fn link(&self, path: &str, filters: &[(&str, &str)], sort: &str, page: i64) -> String {
        let page_text = page.to_string();
        let params = filters
            .iter()
            .copied()
            .chain([("q", self.search.as_str())])
            .chain((sort != self.default_sort).then_some(("sort", sort)))
            .chain((page > 1).then_some(("page", page_text.as_str())))
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| format!("{k}={}", encode_query_value(v)))
            .collect::<Vec<_>>();
        if params.is_empty() {
            path.to_string()
        } else {
            format!("{path}?{}", params.join("&"))
        }
    }
}

/// The sort control's choices: each of the list's `sorts`, linked (by `href(sort, page)`) to its
/// first page.
pub fn sort_options(
    sorts: &[&'static str],
    href: impl Fn(&str, i64) -> String,
) -> Vec<crate::web::page::SelectOption> {
    sorts
        .iter()
        .map(|s| crate::web::page::SelectOption {
            value: href(s, 1),
            label: s.to_string(),
        })
        .collect()
}

/// Percent-encodes a query value (letters, digits and `-_.~` stay as they are, a space is `+`).
pub fn encode_query_value(v: &str) -> String {
    v.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            b' ' => "+".to_string(),
            b => format!("%{b:02X}"),
        })
        .collect()
}

/// Where a list stands among its pages.
#[derive(Debug, Clone)]
pub struct Pager {
    /// From 1.
    pub page: i64,
    /// At least 1, even for an empty list.
    pub pages: i64,
    /// Rows that match, on every page.
    pub total: i64,
    pub previous: Option<String>,
    pub next: Option<String>,
    /// The first page in the same order, for a page past the end.
    pub first: String,
}

impl Pager {
    /// The pager of page `cut.page` of `total` rows, `per_page` a page; `link` gives a page's
    /// address.
    pub fn new(cut: &ListCut, per_page: i64, total: i64, link: impl Fn(i64) -> String) -> Self {
        let per_page = per_page.max(1);
        let pages = ((total.max(0) + per_page - 1) / per_page).max(1);
        Self {
            page: cut.page,
            pages,
            total,
            // Past the end, "Previous" goes to the last page there is.
            previous: (cut.page > 1).then(|| link((cut.page - 1).min(pages))),
            next: (cut.page < pages).then(|| link(cut.page + 1)),
            first: link(1),
        }
    }

    /// The page asked for is after the last one.
    pub fn past_the_end(&self) -> bool {
        self.page > self.pages
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SORTS: [&str; 2] = ["newest", "title"];

    #[test]
    fn a_bad_sort_or_page_is_the_first_page_in_the_lists_own_order() {
        let cut = ListCut::read(Some("  Brandy  "), Some("price"), Some("x"), &SORTS);
        assert_eq!(
            (cut.search.as_str(), cut.sort, cut.page),
            ("Brandy", "newest", 1)
        );
        for page in ["0", "-2", "1.5", ""] {
            assert_eq!(ListCut::read(None, None, Some(page), &SORTS).page, 1);
        }
        let cut = ListCut::read(None, Some("title"), Some("3"), &SORTS);
        assert_eq!((cut.sort, cut.page), ("title", 3));
        assert_eq!(
            ListCut::read(Some(&"x".repeat(300)), None, None, &SORTS)
                .search
                .len(),
            200
        );
    }

    #[test]
    fn links_keep_the_filters_and_search_and_leave_the_defaults_out() {
        let cut = ListCut::read(Some("50% & more"), Some("title"), Some("2"), &SORTS);
        assert_eq!(
            cut.link(
                "/battles",
                &[("war", "seven_years"), ("nation", "")],
                "title",
                3
            ),
            "/battles?war=seven_years&q=50%25+%26+more&sort=title&page=3"
        );
        assert_eq!(
            ListCut::first_page(&SORTS).link("/battles", &[], "newest", 1),
            "/battles"
        );
    }

    #[test]
    fn the_pager_counts_pages_and_links_either_side() {
        let link = |p: i64| format!("/x?page={p}");
        let cut = ListCut::read(None, None, Some("2"), &SORTS);
        let pager = Pager::new(&cut, 50, 120, link);
        assert_eq!((pager.page, pager.pages, pager.total), (2, 3, 120));
        assert_eq!(pager.previous.as_deref(), Some("/x?page=1"));
        assert_eq!(pager.next.as_deref(), Some("/x?page=3"));
        assert!(!pager.past_the_end());

        let empty = Pager::new(&ListCut::first_page(&SORTS), 50, 0, link);
        assert_eq!(empty.pages, 1);
        assert!(empty.previous.is_none() && empty.next.is_none());

        let beyond = Pager::new(&ListCut::read(None, None, Some("9"), &SORTS), 50, 120, link);
        assert!(beyond.past_the_end());
        assert_eq!(beyond.previous.as_deref(), Some("/x?page=3"));
        assert!(beyond.next.is_none());
    }
}
