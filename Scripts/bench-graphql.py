#!/usr/bin/env python3
"""The GraphQL line of Scripts/bench-serve: the People-page-shaped query (an article with two
levels of references: author → avatar, topic → thumbnail, image; renditions of each image) in one
POST, beside the REST requests that fetch the same data (the article with expand=all, then the
avatar and the thumbnail), each over one kept-alive connection. Prints the medians and the ratio.
Usage: bench-graphql.py HOST:PORT TOKEN [RUNS]"""
import http.client, json, statistics, sys, time, urllib.parse

host, token = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 200
api = "/content/published/api/v1.1"
image = "id name fields { file { url metadata { width height } } renditions { name format file { url metadata { width height } } } }"
query = ("query ($slug: String!, $channelToken: String!) { getOCEGettingStartedArticle(slug: $slug, channelToken: $channelToken) {"
         " id slug name fields { articleContent publishedDate { value }"
         " author { id name fields { avatar { " + image + " } } }"
         " topic { id name fields { thumbnail { " + image + " } } }"
         " image { " + image + " } } } }")
connection = http.client.HTTPConnection(host)

def get(path):
    connection.request("GET", api + path + ("&" if "?" in path else "?") + "channelToken=" + token)
    response = connection.getresponse()
    body = response.read()
    assert response.status == 200, (path, response.status)
    return json.loads(body)

listing = get("/items?q=" + urllib.parse.quote('type eq "OCEGettingStartedArticle"') + "&limit=1&fields=all")
slug = listing["items"][0]["slug"]

def graphql():
    body = json.dumps({"query": query, "variables": {"slug": slug, "channelToken": token}})
    connection.request("POST", api + "/graphql", body, {"Content-Type": "application/json"})
    response = connection.getresponse()
    answer = json.loads(response.read())
    assert "errors" not in answer, answer["errors"]
    return answer

def rest():
    article = get("/items/.by.slug/" + urllib.parse.quote(slug) + "?expand=all")
    avatar = article["fields"]["author"]["fields"]["avatar"]["id"]
    thumbnail = article["fields"]["topic"]["fields"]["thumbnail"]["id"]
    return [article, get("/items/" + avatar), get("/items/" + thumbnail)]

def median_ms(function):
    function()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)

g = median_ms(graphql)
r = median_ms(rest)
print(f"graphql People-page shape: {g:.2f}ms median (1 POST) vs REST {r:.2f}ms (3 GETs: article expand=all, avatar, thumbnail), "
      f"ratio REST/GraphQL {r / g:.2f}x over {runs} runs")
