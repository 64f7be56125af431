"""The Vietnamese rules on the web: a translation lives one folder down (docs/rules/vi/),
its diagrams are the ones beside the English documents, and the page shows them."""

from __future__ import annotations

import re

from aiohttp.test_utils import TestClient


async def test_the_vietnamese_rules_page_shows_its_diagrams(client: TestClient) -> None:
    response = await client.get("/rules/commander", headers={"Accept-Language": "vi"})
    html = await response.text()
    assert response.headers["Content-Language"] == "vi"
    sources = re.findall(r'<img src="([^"]+)"', html)
    assert "diagrams/commander-board.png" in sources
    assert not [src for src in sources if src.startswith("../")]
    for src in sources:  # each resolves under /rules/, as the English page's do
        picture = await client.get(f"/rules/{src}")
        assert (src, picture.status, picture.content_type) == (src, 200, "image/png")
