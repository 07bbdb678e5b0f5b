"""The page guard's words (`ui/web/visitors.py`, `ui/web/upload_gate.py`): the refusals a request gets before
it reaches Gradio, in English and Chinese, in the language of the request (`i18n.say_in`)."""

from __future__ import annotations

EN_WEB: dict[str, str] = {
    "web.no_page": "This event runs only for a page loaded in a browser (no live page session was found). Reload the page.",
    "web.upload_no_page": ("Files are accepted only from a page open in a browser: no open page was found for your address. "
                           "Reload the page and attach the file again."),
    "web.upload_rate": ("Uploads from one page or address are limited to {count} a minute on this server (PLAYGROUND_UPLOADS_PER_MINUTE), "
                        "and yours have reached that; the next upload is possible in about {wait} s."),
    "web.upload_disk_full": ("The server's space for visitors' files is full ({used} MB of {budget} MB, PLAYGROUND_MEDIA_BUDGET_MB); "
                             "files are cleared when their page closes: try again in a few minutes."),
}

ZH_WEB: dict[str, str] = {
    "web.no_page": "这个事件只为在浏览器中打开的页面运行（没有找到活动的页面会话）。请刷新页面。",
    "web.upload_no_page": "只接受浏览器中打开的页面上传的文件：没有找到来自你的地址的打开页面。请重新加载页面后再次附加文件。",
    "web.upload_rate": ("本服务器限制同一页面或地址每分钟最多上传 {count} 次（PLAYGROUND_UPLOADS_PER_MINUTE），"
                        "你的上传已达到此上限；大约 {wait} 秒后可以再次上传。"),
    "web.upload_disk_full": ("服务器存放访客文件的空间已满（{used} MB / {budget} MB，PLAYGROUND_MEDIA_BUDGET_MB）；"
                             "页面关闭后其文件会被清除：请几分钟后再试。"),
}
