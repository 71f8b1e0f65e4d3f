#!/usr/bin/env python3
"""Writes the hand-made export fixtures next to this script (needs Pillow for the images).

Each generation follows shared/reference/export-format.md (§2.2 table, §3-§5): only keys and
shapes that the spec describes, values invented. Run from anywhere:

    python3 Tests/ChannelServerTests/Fixtures/exports/make_fixtures.py

gen-a-2018/contentexport/                    2018 "A": DigitalAsset type without a type file,
                                             {id,type} references, links:null, metadata {}
gen-b-2019/Content Template of search_template/   2019 "B": no typeCategory anywhere, null values
gen-d-2023/assets/contenttemplate/Content Template of KnowledgeTemplate/
                                             2023 "D": top-level fileExtension/mimeType/fileGroup,
                                             no renditions, *ByUser, stubs with fileExtension
site-template.zip                            template/assets/contenttemplate/export.zip (gen B)
hostile.zip                                  one good item plus entries that must not be written
images/                                      header samples for ImageHeader
"""

import io
import json
import os
import shutil
import struct
import zipfile

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))


def write_json(path, value):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, separators=(",", ":"))


def image(path, size, fmt, color=(200, 120, 40), **kw):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    Image.new("RGB", size, color).save(path, fmt, **kw)


def date(value):
    return {"value": value, "timezone": "UTC"}


def manifest(folder, name):
    os.makedirs(os.path.join(folder, "META-INF", "TMP"), exist_ok=True)
    with open(os.path.join(folder, "META-INF", "MANIFEST.MF"), "w") as f:
        f.write(f"Manifest-Version: 1.1\nname: {name}\nchecksum: 1\nCreated-by: fixture\n"
                "Created-date: Thu Jun 14 17:20:31 UTC 2018\n")
    open(os.path.join(folder, "META-INF", "TMP", ".keep"), "w").close()


def metadata(template_name, types, items, cdt=False):
    value = {"export-version": "1.1", "template-id": "5F1E0C6B2D2A4F0E9C1B3A5D7E9F1A2B",
             "template-name": template_name, "template-description": "",
             "count": len(types) + len(items), "varsetcount": len(items), "groups": 2,
             "group0": types, "group1": [f"{t}:{i}" for t, i in items]}
    if cdt:
        value["isCDTIncluded"] = True
    return value


def summary(template_name, types, items):
    return {"template-description": "", "types": ",".join(types),
            "template-id": "5F1E0C6B2D2A4F0E9C1B3A5D7E9F1A2B",
            "items": ",".join(i for _, i in items), "template-name": template_name}


def varset(set_id, type_name, master, value, rich=False):
    member = {"id": master, "setId": set_id, "varType": "language", "value": value, "isMaster": True}
    if rich:
        member.update({"name": "x", "status": "draft", "isPublished": False})
    return [{"id": set_id, "type": type_name, "varType": "language", "masterItemId": master, "items": [member]}]


# ---------------------------------------------------------------- gen A (2018)

def gen_a():
    root = os.path.join(HERE, "gen-a-2018")
    shutil.rmtree(root, ignore_errors=True)
    c = os.path.join(root, "contentexport")
    post, author = "CORE0822912B2FE4404F841CFEF4A43C9828", "CORE1A2B3C4D5E6F40718293A4B5C6D7E8F9"
    photo, logo, anim = ("CONTD86002B8BA2545DDAA444CBF1A69D332", "CONT0A1B2C3D4E5F46A7B8C9D0E1F2A3B4C5",
                         "CONT9F8E7D6C5B4A43219F8E7D6C5B4A4321")
    types = ["Starter-Blog-Post", "Starter-Blog-Author"]
    items = [("Starter-Blog-Post", post), ("Starter-Blog-Author", author), ("DigitalAsset", photo),
             ("DigitalAsset", logo), ("DigitalAsset", anim)]
    write_json(f"{c}/metadata.json", metadata("contentexport", types, items))
    write_json(f"{c}/Summary.json", summary("contentexport", types, items))

    def field(fid, name, datatype, valuecount="single", ref=None, editor="textbox"):
        f = {"id": fid, "name": name, "description": name, "datatype": datatype, "required": False,
             "valuecount": valuecount, "properties": {},
             "settings": {"caas": {"editor": {"name": editor, "options": {}}}}}
        if ref is not None:
            f["referenceType"] = {"type": ref}
        return f

    def ctype(tid, name, fields):
        return {"id": tid, "name": name, "description": "",
                "createdby": "admin", "createddate": date("2018-06-14T17:18:41.345Z"),
                "updatedby": "admin", "updateddate": date("2018-06-14T17:18:41.345Z"),
                "fields": fields, "properties": {}, "allowedFileTypes": ["ContentItem"],
                "layoutMapping": {"data": []}, "links": None}

    write_json(f"{c}/ContentTypes/Starter-Blog-Post.json", ctype("78CE5D0C9747498B8714115FB1484166", "Starter-Blog-Post", [
        field("300B90C119A34FC1BAA7DE4B5552A1F1", "starter-blog-post_title", "text"),
        field("DC20A2421F18470FA8EDB67D73C38BB9", "starter-blog-post_content", "largetext",
              editor="rich-text-editor"),
        field("9C03A588217D493591F9B4BDA2A9441A", "starter-blog-post_author", "reference",
              ref="Starter-Blog-Author", editor="itempicker"),
        field("83E51C31F65B49448F66C24E57DB4ECB", "starter-blog-post_header_image", "reference",
              ref="DigitalAsset", editor="mediapicker"),
        field("4F1C2D3E4F5A6B7C8D9E0F1A2B3C4D5E", "starter-blog-post_download_media", "reference",
              valuecount="list", ref="DigitalAsset", editor="mediapicker"),
    ]))
    write_json(f"{c}/ContentTypes/Starter-Blog-Author.json", ctype("0B1C2D3E4F5A6B7C8D9E0F1A2B3C4D5E", "Starter-Blog-Author", [
        field("1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D6E", "starter-blog-author_name", "text"),
        field("2B3C4D5E6F7A8B9C0D1E2F3A4B5C6D7E", "starter-blog-author_avatar", "reference",
              ref="DigitalAsset", editor="mediapicker"),
    ]))

    def item(iid, type_name, name, fields, **extra):
        value = {"id": iid, "type": type_name, "name": name, "description": "",
                 "createdBy": "admin", "createdDate": date("2018-06-14T17:20:49.346Z"),
                 "updatedBy": "admin", "updatedDate": date("2018-06-14T17:20:49.346Z"),
                 "repositoryId": "B1646DC9B6A649C39FBB038F106A5FEE", "fields": fields, "links": None}
        value.update(extra)
        return value

    write_json(f"{c}/ContentItems/Starter-Blog-Post/{post}.json", item(
        post, "Starter-Blog-Post", "Roasting at home", {
            "starter-blog-post_title": "Roasting at home",
            "starter-blog-post_content": "<!DOCTYPE html><p>Start with green beans.</p>",
            "starter-blog-post_author": {"id": author, "type": "Starter-Blog-Author"},
            "starter-blog-post_header_image": {"id": photo, "type": "DigitalAsset"},
            "starter-blog-post_download_media": [{"id": logo, "type": "DigitalAsset"},
                                                 {"id": anim, "type": "DigitalAsset"}],
        }, slug="1481786063051-roasting-at-home", language="en-US", translatable=True))
    write_json(f"{c}/ContentItems/Starter-Blog-Author/{author}.json", item(
        author, "Starter-Blog-Author", "Ana Roast", {
            "starter-blog-author_name": "Ana Roast",
            "starter-blog-author_avatar": {"id": logo, "type": "DigitalAsset"},
        }, slug="1481786063050-ana-roast", language="en-US", translatable=True))

    def asset(aid, name, ext, mime, size, wrong_size):
        folder = f"{c}/ContentItems/DigitalAsset/files/{aid}"
        image(f"{folder}/{name}", size, {"jpg": "JPEG", "png": "PNG", "gif": "GIF"}[ext])
        href = f"http://src-host:8080/content/management/api/v1.1/assets/{aid}"
        write_json(f"{c}/ContentItems/DigitalAsset/{aid}.json", item(
            aid, "DigitalAsset", name, {
                "metadata": {},
                "size": wrong_size,
                "native": {"links": [{"href": f"{href}/native/{name}", "rel": "self", "method": "GET",
                                      "mediaType": mime}]},
                "renditions": [{"name": "thumbnail", "type": "uithumbnail", "formats": [
                    {"format": "jpg", "metadata": {"width": "150", "height": "113"},
                     "links": [{"href": f"{href}/thumbnail/{name}?format=jpg&type=uithumbnail",
                                "rel": "self", "method": "GET", "mediaType": "image/jpg"}]}]}],
                "mimeType": mime,
                "version": "1",
                "fileType": ext,
            }, externalFile={"folderId": "F0A1B2C3D4E5F6A7B8C9D0E1F2A3B4C5D6E7", "fileId": "D0F1A2B3C4D5E6F7",
                             "version": "1"}))

    asset(photo, "photo one.jpg", "jpg", "image/jpg", (40, 30), 425392)
    asset(logo, "logo.png", "png", "image/png", (20, 10), 9000)
    asset(anim, "spinner.gif", "gif", "image/gif", (8, 6), 500)

    for type_name, iid in items:
        write_json(f"{c}/ContentItems/VariationSets/{iid}.json",
                   varset("C007EC0B1A4F727FE053D49D6F6" + iid[-5:], type_name, iid, "en-US"))
    manifest(root, "contentexport")


# ---------------------------------------------------------------- gen B (2019)

def gen_b(root):
    shutil.rmtree(root, ignore_errors=True)
    name = "Content Template of search_template"
    c = os.path.join(root, name)
    a1, a2, topic = ("CORE2C0F5E3A7B1D4E6F8A9B0C1D2E3F4A5B", "CORE3D1A6F4B8C2E4F7A9B0C1D2E3F4A5B6C",
                     "CORE4E2B7A5C9D3F4A8B0C1D2E3F4A5B6C7D")
    types = ["Search-Article", "Search-Topic"]
    items = [("Search-Article", a1), ("Search-Article", a2), ("Search-Topic", topic)]
    write_json(f"{c}/metadata.json", metadata(name, types, items))
    write_json(f"{c}/Summary.json", summary(name, types, items))

    def field(fid, fname, datatype, valuecount="single", ref=None):
        f = {"id": fid, "name": fname, "description": fname, "datatype": datatype,
             "required": False, "valuecount": valuecount, "properties": {},
             "settings": {"caas": {"editor": {"name": "textbox", "options": {}}}}}
        if ref is not None:
            f["referenceType"] = {"type": ref, "types": [ref]}
        return f

    def ctype(tid, tname, fields):
        return {"id": tid, "name": tname, "description": "", "createdBy": "admin",
                "createdDate": date("2019-03-13T10:00:00.000Z"), "updatedBy": "admin",
                "updatedDate": date("2019-03-13T10:00:00.000Z"), "fields": fields, "properties": {},
                "allowedFileTypes": ["ContentItem"], "layoutMapping": {"data": []}, "links": None}

    write_json(f"{c}/ContentTypes/Search-Article.json", ctype("1A1A1A1A1A1A4A1A8A1A1A1A1A1A1A1A", "Search-Article", [
        field("2B2B2B2B2B2B4B2B8B2B2B2B2B2B2B2B", "search-article_title", "text"),
        field("3C3C3C3C3C3C4C3C8C3C3C3C3C3C3C3C", "search-article_keywords", "text", valuecount="list"),
        field("4D4D4D4D4D4D4D4D8D4D4D4D4D4D4D4D", "search-article_published", "datetime"),
        field("5E5E5E5E5E5E4E5E8E5E5E5E5E5E5E5E", "search-article_topic", "reference", ref="Search-Topic"),
        field("6F6F6F6F6F6F4F6F8F6F6F6F6F6F6F6F", "search-article_rank", "number"),
    ]))
    write_json(f"{c}/ContentTypes/Search-Topic.json", ctype("7A7A7A7A7A7A4A7A8A7A7A7A7A7A7A7A", "Search-Topic", [
        field("8B8B8B8B8B8B4B8B8B8B8B8B8B8B8B8B", "search-topic_label", "text"),
    ]))

    def item(iid, type_name, iname, fields):
        return {"id": iid, "type": type_name, "name": iname, "description": "", "createdBy": "admin",
                "createdDate": date("2019-03-13T10:20:49.346Z"), "updatedBy": "admin",
                "updatedDate": date("2019-03-13T10:21:00.100Z"), "repositoryId": "B1646DC9B6A649C39FBB038F106A5FEE",
                "slug": "search-" + iname.lower().replace(" ", "-"), "language": "en-US", "translatable": True,
                "status": "draft", "isPublished": False, "languageIsMaster": True, "version": "0.1",
                "tags": {}, "fields": fields, "variations": {},
                "channels": {"data": [{"id": "CHANNELF9549F858F34DBC20BEF775D222D0C4E618849FE4051"}]},
                "collections": {}, "relationships": {}, "taxonomies": {}}

    write_json(f"{c}/ContentItems/Search-Article/{a1}.json", item(a1, "Search-Article", "Cold brew", {
        "search-article_title": "Cold brew", "search-article_keywords": ["coffee", "cold"],
        "search-article_published": {"value": "2019-03-01T08:00:00.000-05:00", "timezone": "America/New_York"},
        "search-article_topic": {"id": topic, "type": "Search-Topic", "name": "Brewing"},
        "search-article_rank": 3}))
    write_json(f"{c}/ContentItems/Search-Article/{a2}.json", item(a2, "Search-Article", "Espresso basics", {
        "search-article_title": "Espresso basics", "search-article_keywords": None,
        "search-article_published": None, "search-article_topic": None, "search-article_rank": None}))
    write_json(f"{c}/ContentItems/Search-Topic/{topic}.json", item(topic, "Search-Topic", "Brewing", {
        "search-topic_label": "Brewing"}))
    for type_name, iid in items:
        write_json(f"{c}/ContentItems/VariationSets/{iid}.json",
                   varset("D117EC0B1A4F727FE053D49D6F6" + iid[-5:], type_name, iid, "en-US"))
    write_json(f"{c}/LocalizationPolicies/localizationPolicy.json", {
        "id": "C007E4932F0D6705E053D49D6F646D98", "name": "enus", "description": "", "createdBy": "admin",
        "createdDate": date("2019-03-13T09:00:00.000Z"), "updatedBy": "admin",
        "updatedDate": date("2019-03-13T09:00:00.000Z"), "defaultValue": None,
        "requiredValues": ["en-US"], "optionalValues": [], "links": None})
    manifest(root, name)


# ---------------------------------------------------------------- gen D (2023)

def gen_d():
    top = os.path.join(HERE, "gen-d-2023")
    shutil.rmtree(top, ignore_errors=True)
    name = "Content Template of KnowledgeTemplate"
    c = os.path.join(top, "assets", "contenttemplate", name)
    banner, employee = "CORE04FE1CC166BC4736AC48971DFD95BBCA", "CORE5A6B7C8D9E0F41A2B3C4D5E6F7A8B9C0"
    hero, face = "CONT4B1D44C0B8EA417783658FE88D6C0AED", "CONT6C7D8E9F0A1B42C3D4E5F6A7B8C9D0E1"
    types = ["Knowledge-Banner", "Knowledge-Employee-Detail", "Image"]
    items = [("Knowledge-Banner", banner), ("Knowledge-Employee-Detail", employee), ("Image", hero), ("Image", face)]
    write_json(f"{c}/metadata.json", metadata(name, types, items, cdt=True))
    write_json(f"{c}/Summary.json", summary(name, types, items))

    def field(fid, fname, api, datatype, ref=None, category=None, system=False, editor="textbox"):
        f = {"id": fid, "name": fname, "apiName": api, "description": fname, "datatype": datatype,
             "required": False, "valuecount": "single", "properties": {},
             "settings": {"caas": {"editor": {"name": editor, "options": {}}, "valuecountRange": None}}}
        if system:
            f["isSystemField"] = True
        if category is not None:
            f["referenceType"] = {"type": ref, "types": [ref] if ref else [], "typeCategory": category}
        return f

    def ctype(tid, tname, api, display, category, fields, allowed=("ContentItem",)):
        return {"id": tid, "name": tname, "apiName": api, "displayName": display, "description": "",
                "typeCategory": category, "createdBy": "admin", "createdDate": date("2023-03-23T23:30:00.000Z"),
                "updatedBy": "admin", "updatedDate": date("2023-03-23T23:30:00.000Z"), "fields": fields,
                "properties": {"caas": {"slug": {"enabled": True, "allow-forward-slash": True,
                                                 "pattern": "{name}"}}},
                "allowedFileTypes": list(allowed), "layoutMapping": {"data": []}, "links": None,
                "allowedActions": ["preview", "read"], "archivedFields": {}, "relationships": {}}

    write_json(f"{c}/ContentTypes/Knowledge-Banner.json", ctype(
        "9A8B7C6D5E4F43A2B1C0D9E8F7A6B5C4", "Knowledge-Banner", "knowledgeBanner", "Knowledge Banner",
        "ContentType", [
            field("A1", "banner-title", "bannerTitle", "text"),
            field("A2", "banner-date", "bannerDate", "datetime", editor="datepicker"),
            field("A3", "banner-image", "bannerImage", "reference", ref=None, category="DigitalAssetType",
                  editor="mediapicker"),
            field("A4", "banner-contact", "bannerContact", "reference", ref="Knowledge-Employee-Detail",
                  category="ContentType", editor="itempicker"),
        ]))
    write_json(f"{c}/ContentTypes/Knowledge-Employee-Detail.json", ctype(
        "8A7B6C5D4E3F42A1B0C9D8E7F6A5B4C3", "Knowledge-Employee-Detail", "knowledgeEmployeeDetail",
        "Knowledge Employee Detail", "ContentType", [
            field("B1", "employee-name", "employeeName", "text"),
            field("B2", "employee-photo", "employeePhoto", "reference", ref="Image", category="DigitalAssetType",
                  editor="mediapicker"),
        ]))
    write_json(f"{c}/ContentTypes/Image.json", ctype(
        "EF4C64E6BF81419F9743A8A4348A69EB", "Image", "image", "Image", "DigitalAssetType", [
            field("S1", "metadata", "metadata", "json", system=True),
            field("S2", "renditions", "renditions", "json", system=True),
            field("S3", "mimeType", "mimeType", "text", system=True),
            field("S4", "size", "size", "number", system=True),
            field("S5", "native", "native", "json", system=True),
            field("S6", "fileGroup", "fileGroup", "text", system=True),
            field("S7", "fileType", "fileType", "text", system=True),
            field("S8", "advancedVideoInfo", "advancedVideoInfo", "json", system=True),
        ], allowed=("jpg", "jpeg", "png", "gif", "webp")))

    user = {"userID": "1F2E3D4C", "userName": "jane", "displayName": "Jane Doe", "email": "jane@example.com"}

    def item(iid, type_name, category, iname, fields, **extra):
        value = {"id": iid, "type": type_name, "typeCategory": category, "name": iname, "description": "",
                 "createdBy": "jane", "createdByUser": user, "createdDate": date("2023-03-23T23:36:07.770Z"),
                 "updatedBy": "jane", "updatedByUser": user, "updatedDate": date("2023-03-23T23:36:07.770Z"),
                 "repositoryId": "1E0F2A3B4C5D6E7F8A9B0C1D2E3F4A5B", "status": "draft", "isPublished": False,
                 "languageIsMaster": True, "version": "0.1", "latestVersion": "0.1", "scheduled": False,
                 "tags": {}, "fields": fields, "variations": {}, "versionInfo": {}, "lockInfo": {},
                 "connectorFileInfo": {}, "workflowInstances": {"links": None},
                 "channels": {"data": [{"id": "CHANNELF954D2E1", "isPrimaryChannel": False}]},
                 "publishedChannels": {}, "collections": {}, "relationships": {}, "taxonomies": {},
                 "suggestedTaxonomies": {}, "workflows": {}, "changes": {}, "currentVersion": "0.1",
                 "permissions": {}, "varSetId": "E1" + iid[-30:]}
        value.update(extra)
        return value

    write_json(f"{c}/ContentItems/Knowledge-Banner/{banner}.json", item(
        banner, "Knowledge-Banner", "ContentType", "Welcome banner", {
            "banner-title": "Welcome to the knowledge base",
            "banner-date": {"value": "2022-12-11T00:00:00.000-05:00", "timezone": "America/New_York"},
            "banner-image": {"id": hero, "type": "Image", "typeCategory": "DigitalAssetType",
                             "name": "banner.jpg", "fileExtension": "jpg"},
            "banner-contact": {"id": employee, "type": "Knowledge-Employee-Detail", "typeCategory": "ContentType",
                               "name": "Ana"},
        }, slug="welcome-banner", language="en-US", translatable=True, fileExtension="contentItem",
        mimeType="contentItem", fileGroup="contentItem"))
    write_json(f"{c}/ContentItems/Knowledge-Employee-Detail/{employee}.json", item(
        employee, "Knowledge-Employee-Detail", "ContentType", "Ana", {
            "employee-name": "Ana",
            "employee-photo": {"id": face, "type": "Image", "typeCategory": "DigitalAssetType",
                               "name": "face.png", "fileExtension": "png"},
        }, slug="ana", language="en-US", translatable=True, fileExtension="contentItem",
        mimeType="contentItem", fileGroup="contentItem"))

    def asset(aid, fname, ext, mime, size, fmt):
        path = f"{c}/ContentItems/Image/files/{aid}/{fname}"
        image(path, size, fmt)
        href = f"https://src.example.com/content/management/api/v1.1/assets/{aid}/native/{fname}"
        write_json(f"{c}/ContentItems/Image/{aid}.json", item(
            aid, "Image", "DigitalAssetType", fname, {
                "metadata": {"width": str(size[0]), "height": str(size[1])},
                "size": os.path.getsize(path),
                "native": {"links": [{"href": href, "rel": "self", "method": "GET", "mediaType": mime}]},
                "mimeType": mime, "fileGroup": "Images", "fileType": "jpeg" if ext == "jpg" else ext,
            }, slug="image-" + fname.split(".")[0], language="en-US", translatable=False, fileExtension=ext,
            mimeType=mime, fileGroup="Images"))

    asset(hero, "banner.jpg", "jpg", "image/jpeg", (64, 48), "JPEG")
    asset(face, "face.png", "png", "image/png", (32, 32), "PNG")
    for type_name, iid in items:
        write_json(f"{c}/ContentItems/VariationSets/{iid}.json",
                   varset("E1" + iid[-30:], type_name, iid, "en-US", rich=True))
    write_json(f"{c}/LocalizationPolicies/localizationPolicy.json", {
        "id": "C007E4932F0D6705E053D49D6F646D98", "name": "enus", "description": "", "createdBy": "jane",
        "createdDate": date("2023-03-23T23:00:00.000Z"), "updatedBy": "jane",
        "updatedDate": date("2023-03-23T23:00:00.000Z"), "defaultValue": "en-US",
        "requiredValues": ["en-US"], "optionalValues": [], "links": None})
    manifest(os.path.join(top, "assets", "contenttemplate"), name)


# ---------------------------------------------------------------- zips

def zip_tree(folder, names=None):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for base, _, files in sorted(os.walk(folder)):
            for f in sorted(files):
                full = os.path.join(base, f)
                rel = os.path.relpath(full, folder)
                if names is None or rel.split(os.sep)[0] in names:
                    z.write(full, rel)
    return out.getvalue()


def site_template():
    tmp = os.path.join(HERE, ".tmp-gen-b")
    gen_b(tmp)
    export_zip = zip_tree(tmp)
    shutil.rmtree(tmp)
    with zipfile.ZipFile(os.path.join(HERE, "site-template.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("template/assets/contenttemplate/export.zip", export_zip)
        z.writestr("template/assets/contenttemplate/summary.json", json.dumps({"summary": {
            "contentTypes": ["Search-Article", "Search-Topic"], "contentItems": []}}))
        z.writestr("template/caas_contenttypemap.json", "[]")
        z.writestr("template/content/Joel.png", png_bytes((4, 4)))
        z.writestr("template/structure.json", "{}")


def png_bytes(size):
    out = io.BytesIO()
    Image.new("RGB", size, (10, 20, 30)).save(out, "PNG")
    return out.getvalue()


def hostile():
    good = "CORE7F7F7F7F7F7F47F7A7F7F7F7F7F7F7F7"
    with zipfile.ZipFile(os.path.join(HERE, "hostile.zip"), "w") as z:
        z.writestr("contentexport/metadata.json", json.dumps(metadata("contentexport", ["Note"], [("Note", good)])))
        z.writestr(f"contentexport/ContentItems/Note/{good}.json", json.dumps({
            "id": good, "type": "Note", "typeCategory": "ContentType", "name": "Safe note", "description": "",
            "createdDate": date("2021-01-01T00:00:00.000Z"), "updatedDate": date("2021-01-01T00:00:00.000Z"),
            "language": "en-US", "translatable": True, "fields": {"text": "hello"}}))
        z.writestr("../escaped-dotdot.txt", "must not be written")
        z.writestr("contentexport/../../escaped-nested.txt", "must not be written")
        z.writestr("/tmp/oceq-escaped-absolute.txt", "must not be written")
        link = zipfile.ZipInfo("contentexport/ContentItems/Note/link-to-etc")
        link.create_system = 3
        link.external_attr = (0o120777 << 16)
        z.writestr(link, "/etc")


def image_samples():
    folder = os.path.join(HERE, "..", "images")
    shutil.rmtree(folder, ignore_errors=True)
    image(f"{folder}/40x30.jpg", (40, 30), "JPEG")
    image(f"{folder}/40x30-progressive.jpg", (40, 30), "JPEG", progressive=True)
    image(f"{folder}/20x10.png", (20, 10), "PNG")
    image(f"{folder}/8x6.gif", (8, 6), "GIF")
    image(f"{folder}/33x17-lossy.webp", (33, 17), "WEBP", quality=50)
    image(f"{folder}/33x17-lossless.webp", (33, 17), "WEBP", lossless=True)
    # A JPEG whose SOF sits behind a 40 KB APP1 block (as large EXIF thumbnails make it).
    plain = io.BytesIO()
    Image.new("RGB", (300, 200), (1, 2, 3)).save(plain, "JPEG")
    data = plain.getvalue()
    payload = b"Exif\x00\x00" + bytes(40000)
    app1 = b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    with open(f"{folder}/300x200-big-exif.jpg", "wb") as f:
        f.write(data[:2] + app1 + data[2:])
    with open(f"{folder}/not-an-image.bin", "wb") as f:
        f.write(b"\x00\x01\x02 plain bytes, no image here" * 2)


if __name__ == "__main__":
    gen_a()
    gen_b(os.path.join(HERE, "gen-b-2019"))
    gen_d()
    site_template()
    hostile()
    image_samples()
    print("fixtures written under", HERE)
